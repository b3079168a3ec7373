/**
 * @module datasets
 * Public evaluation data sets (NESTFUL, Seal-Tools) as Credence catalogue records and executions.
 * Parsers only: no I/O here; `eval/convert-datasets.ts` and the tests read the files.
 */
export { readJsonLines, type JsonLine, type JsonLineError, type JsonLines } from './jsonl.js';
export {
  NESTFUL_RESULT_CALL,
  parseNestfulData,
  parseNestfulSpec,
  type NestfulData,
  type NestfulExecution,
  type NestfulProblem,
} from './nestful.js';
export { SEAL_TOOLS_ORIGIN, parseSealToolsQuery, parseSealToolsTool, type SealToolsExecution } from './seal-tools.js';
export { parseTaskPlanRequest, parseTaskPlanTools, type TaskPlanExecution } from './task-plan.js';
