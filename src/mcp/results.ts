/**
 * @module mcp/results
 * The two shapes of a tool result: a value as JSON text plus the same value as `structuredContent`,
 * and a tool's own failure as text, both with `isError: true` when the tool failed.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** A result as JSON text plus the same value as `structuredContent`. */
export function jsonResult(value: Record<string, unknown>, isError = false): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(value) }],
    structuredContent: value,
    ...(isError ? { isError: true } : {}),
  };
}

/** An error result, the way MCP reports a tool's own failure. */
export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}
