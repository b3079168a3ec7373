/**
 * @module engine/demo/scope
 * The scope `credence demo` fills unless told another; a module of its own, so that the command
 * line reads it without loading the demo.
 */
export const DEMO_SCOPE = 'demo';
