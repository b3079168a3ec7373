/**
 * @module mcp/fields
 * Text fields of the MCP input schemas, bounded by the engine's limits (core/limits), so that a
 * client sees each field's `maxLength` in the published JSON Schema and an over-long argument is
 * refused before any work, as an argument that does not fit the schema (-32602, naming the field).
 */
import { z } from 'zod';
import { INPUT_LIMITS, type InputLimitName } from '../core/limits.js';

/** A string of at most `INPUT_LIMITS[limit]` characters. */
export const text = (limit: InputLimitName) =>
  z.string().max(INPUT_LIMITS[limit], `at most ${INPUT_LIMITS[limit]} characters (the ${limit} limit)`);
