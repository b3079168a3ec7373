/**
 * @module mcp/results
 * The two shapes of a tool result: a value as JSON text plus the same value as `structuredContent`,
 * and a tool's own failure as text, both with `isError: true` when the tool failed; and a protocol error.
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

/**
 * A protocol error (JSON-RPC `code`, e.g. -32602) whose message goes on the wire as written: the SDK's McpError puts
 * "MCP error <code>: " in its message, and a client adds it again when it raises what it received (walk 18, item 8).
 */
export function protocolError(code: number, message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code });
}
