/**
 * @module core/graph/graph-density
 * Density of the learned tool graph, which picks the DAG-confidence tier: seed 001 (ADR-026), SPEC §5.
 *     density = |E| / (|V| · (|V| − 1))      (0 when |V| < 2)
 * |V| = tools called or with any edge; |E| = distinct directed (from, to) pairs with confidence ≥ 0.3,
 * self-loops left out. Counting only confident pairs keeps a large imported catalogue of template edges
 * from holding the graph in cold start forever.
 */

import { EDGE_DEFAULTS, passesThreshold } from './edge-confidence.js';
import { CredenceError } from '../errors.js';
import { requireCount, requireNumber } from '../validate.js';

export interface DensityEdge {
  readonly from: string;
  readonly to: string;
  readonly confidence: number;
}

export interface DensityOptions {
  /** Minimum confidence (inclusive) for a pair to count in |E|. @default 0.3 */
  readonly threshold?: number;
}

export interface GraphDensity {
  readonly density: number;
  /** |V| */
  readonly vertices: number;
  /** |E| */
  readonly edges: number;
}

/**
 * Density of a directed simple graph: `|E| / (|V| · (|V| − 1))`, 0 when |V| < 2.
 * @throws CredenceError INVALID_INPUT unless both counts are integers ≥ 0 and
 * `edgeCount ≤ |V| · (|V| − 1)`.
 */
export function graphDensity(vertexCount: number, edgeCount: number): number {
  requireCount('vertexCount', vertexCount);
  requireCount('edgeCount', edgeCount);
  if (vertexCount < 2) {
    if (edgeCount > 0) throw tooManyEdges(vertexCount, edgeCount, 0);
    return 0;
  }
  const possible = vertexCount * (vertexCount - 1);
  if (edgeCount > possible) throw tooManyEdges(vertexCount, edgeCount, possible);
  return edgeCount / possible;
}

/**
 * Density of a learned graph given its edges (with their read-time confidence) and the tools that
 * were called. An edge of any confidence makes its endpoints vertices (a self-loop included); only
 * confident, non-loop pairs count as edges, each (from, to) pair once whatever its types.
 * @throws CredenceError INVALID_INPUT when a confidence or the threshold is NaN.
 */
export function densityOfEdges(
  edges: readonly DensityEdge[],
  calledTools: Iterable<string>,
  options: DensityOptions = {},
): GraphDensity {
  const threshold = options.threshold ?? EDGE_DEFAULTS.threshold;
  requireNumber('threshold', threshold);
  const vertices = new Set<string>(calledTools);
  const pairs = new Map<string, Set<string>>();
  let edgeCount = 0;
  for (const edge of edges) {
    vertices.add(edge.from);
    vertices.add(edge.to);
    if (edge.from === edge.to || !passesThreshold(edge.confidence, threshold)) continue;
    let targets = pairs.get(edge.from);
    if (targets === undefined) {
      targets = new Set<string>();
      pairs.set(edge.from, targets);
    }
    if (!targets.has(edge.to)) {
      targets.add(edge.to);
      edgeCount += 1;
    }
  }
  return { density: graphDensity(vertices.size, edgeCount), vertices: vertices.size, edges: edgeCount };
}

function tooManyEdges(vertexCount: number, edgeCount: number, possible: number): CredenceError {
  return new CredenceError(
    'INVALID_INPUT',
    `edgeCount ${edgeCount} exceeds the ${possible} directed pairs possible between ${vertexCount} vertices`,
    { details: { vertexCount, edgeCount } },
  );
}
