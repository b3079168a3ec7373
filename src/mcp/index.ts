/**
 * @module mcp — `credence/mcp`: the MCP server and gateway as a library (apart from the main entry,
 * so that importing `credence` never loads the MCP SDK).
 */
export { serve, importGatewayTools, checkServeConfig, type ServeConfig, type ServeIO } from './serve.js';
export { createMcpSession, SERVER_INFO, type CredenceMcpSession, type McpServerOptions } from './server.js';
export {
  Gateway,
  errorResult,
  toolId,
  type DownstreamTool,
  type GatewayOptions,
  type ServerStatus,
} from './gateway.js';
export { parseGatewayConfig, expandVariables, type DownstreamServer } from './config.js';
export { META_TOOLS, jsonResult, inputJsonSchema, type MetaTool, type MetaToolContext } from './meta-tools.js';
export { serveHttp, isLoopback, type HttpServeOptions, type RunningHttpServer } from './http.js';
export { SessionRecorder, type SessionCall, type SessionRecorderOptions } from './session.js';
