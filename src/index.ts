/**
 * @module credence
 * The library entry: `openCredence()` and the pure core, for authors of agent workflows.
 */
export {
  Credence,
  openCredence,
  defaultDbPath,
  parseNow,
  type CredenceOptions,
  type OptionNames,
  type Status,
  type Tracking,
  type Shown,
  // `ObservationDraft` names the hook rules' draft (hooks/signals): what `observeNow` takes is this one.
  type ObservationDraft as ObserveNowInput,
} from './engine/engine.js';
// What the Credence methods take and return (walk 7, item 8): the package's `exports` map hides dist/.
export type { MemoryInput, ToolInput, ObservationInput } from './schemas/index.js';
export type { RecallKind, RecallRequest, RecallResult, RecallTimes, RecallNeighbour } from './engine/recall/recall.js';
export type { RememberReport } from './engine/recall/remember.js';
export type { FeedbackResult, Metrics, ShownItem } from './engine/feedback-service.js';
export type {
  CalibrationReport,
  KindCalibration,
  ProbabilityBasis,
  ProbabilityFields,
  ProbabilityInfo,
} from './engine/calibration.js';
export type { EvolveReport } from './engine/learning/evolve.js';
export type { ForgetResult, LimitOptions, PruneReport } from './engine/forget.js';
export type {
  DagConfidenceBasis,
  DagMemory,
  DagRequest,
  DagSuggestion,
  LearnedToolResult,
  MemoryMatch,
  MemoryUnlike,
  ToolMemory,
  ToolSearchRequest,
} from './engine/search/search.js';
export type {
  AppendCalls,
  AppendHead,
  AppendResult,
  EdgeView,
  NextSuggestion,
  RecordOptions,
  RecordResult,
} from './engine/tool-graph/tool-graph.js';
export type { GraphSnapshot, GraphStats } from './engine/tool-graph/graph-snapshot.js';
export type { DagRecord, WorkflowView } from './engine/workflows/workflows.js';
export type { LearningView } from './engine/learning/learning-view.js';
export type { ImportedEvent, SessionImport } from './engine/import-sessions.js';
// The embedding providers, for the `embedder` option (docs/library.md).
export {
  createEmbeddingProvider,
  resolveEmbeddingConfig,
  wordVectorProvider,
  transformersProvider,
  ollamaProvider,
  openAiProvider,
  type EmbeddingConfig,
  type EmbeddingProvider,
  type EmbeddingProviderName,
  type WordVectorOptions,
  type TransformersOptions,
  type OllamaOptions,
  type OpenAiOptions,
  type RemoteOptions,
} from './embed/index.js';
export * from './core/index.js';
// The Claude Code hook rules left the core (issue 18) but stay in the package's API.
export * from './hooks/signals.js';
export * from './store/index.js';
export { resolveScope, type ResolvedScope } from './platform/git-scope.js';
export { runDemo, type DemoReport } from './engine/demo/demo.js';
export * from './adapters/pocketflow/index.js';
export { scoreRun, type RunInput, type RunNodeInput, type RunResult, type RunListing } from './engine/runs.js';
