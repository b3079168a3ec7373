/**
 * @module core/workflow/task — one task of an explicit workflow (SPEC §5), apart so that the validation and the
 * references share it without a cycle.
 */
export interface WorkflowTask {
  id: string;
  tool: string;
  arguments?: unknown;
  dependsOn?: readonly string[];
}
