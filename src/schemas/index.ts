/** @module schemas — zod schemas for everything that crosses a trust boundary. */
export { CallInputSchema, ExecutionInputSchema, type ExecutionInputParsed } from './execution.js';
export { ToolInputSchema, type ToolInput } from './tool.js';
export { formatIssues, kindOf, shownValue } from './format.js';
export { MemoryInputSchema, type MemoryInput } from './memory.js';
export { ObservationInputSchema, type ObservationInput } from './observation.js';
