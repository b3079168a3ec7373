/**
 * @module core/graph/graph-layout
 * A deterministic 2-D layout of the tool graph for the dashboard: nodes start on a Vogel spiral
 * (Vogel 1979, "A better way to construct the sunflower head") in the order given — the most
 * central first, so they sit in the middle — and, for graphs small enough, are then moved by
 * Fruchterman–Reingold force-directed placement (Fruchterman & Reingold 1991, "Graph drawing by
 * force-directed placement"), which is O(n²) a step. Large graphs keep the spiral: it costs O(n) and
 * keeps the 5,000-tool page within its budget. No randomness: the same graph gives the same picture.
 * Coordinates come back normalised to [-1, 1].
 */
import { CredenceError } from '../errors.js';
import { requireCount } from '../validate.js';

export const LAYOUT_DEFAULTS = Object.freeze({
  /** Graphs with more nodes than this keep the spiral. */
  forceLimit: 400,
  /** Force-directed steps. */
  iterations: 120,
});

export interface LayoutOptions {
  /** @default LAYOUT_DEFAULTS.forceLimit */
  forceLimit?: number;
  /** @default LAYOUT_DEFAULTS.iterations */
  iterations?: number;
}

export interface LayoutEdge {
  /** Index of a node. */
  from: number;
  to: number;
  /** In (0, 1]: stronger edges pull harder. */
  weight: number;
}

export interface Layout {
  x: Float64Array;
  y: Float64Array;
  method: 'spiral' | 'force';
}

const GOLDEN_ANGLE = Math.PI * (3 - Math.sqrt(5));

/** Lays out `n` nodes (index 0 first on the spiral). Throws INVALID_INPUT for an edge naming no node. */
export function layoutGraph(n: number, edges: readonly LayoutEdge[], options: LayoutOptions = {}): Layout {
  requireCount('n', n);
  const forceLimit = options.forceLimit ?? LAYOUT_DEFAULTS.forceLimit;
  const iterations = options.iterations ?? LAYOUT_DEFAULTS.iterations;
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i += 1) {
    const r = Math.sqrt((i + 0.5) / n);
    x[i] = r * Math.cos(i * GOLDEN_ANGLE);
    y[i] = r * Math.sin(i * GOLDEN_ANGLE);
  }
  for (const e of edges) {
    if (!(e.from >= 0 && e.from < n && e.to >= 0 && e.to < n))
      throw new CredenceError('INVALID_INPUT', `edge ${e.from} → ${e.to} names a node outside 0..${n - 1}`);
  }
  if (n < 2 || n > forceLimit || iterations === 0) return { x, y, method: 'spiral' };
  forceDirected(x, y, edges, iterations);
  spreadEvenly(x, y);
  normalise(x, y);
  return { x, y, method: 'force' };
}

function forceDirected(x: Float64Array, y: Float64Array, edges: readonly LayoutEdge[], iterations: number): void {
  const n = x.length;
  const k = Math.sqrt(4 / n); // the ideal distance on a 2 × 2 area
  const dx = new Float64Array(n);
  const dy = new Float64Array(n);
  let temperature = 0.2;
  const cooling = temperature / (iterations + 1);
  for (let step = 0; step < iterations; step += 1) {
    dx.fill(0);
    dy.fill(0);
    for (let i = 0; i < n; i += 1) {
      for (let j = i + 1; j < n; j += 1) {
        let ddx = (x[i] as number) - (x[j] as number);
        let ddy = (y[i] as number) - (y[j] as number);
        let d2 = ddx * ddx + ddy * ddy;
        if (d2 < 1e-12) {
          // Two nodes on one point: push them apart along a fixed direction (no randomness).
          ddx = 1e-3 * (1 + (i % 7));
          ddy = 1e-3 * (1 + (j % 5));
          d2 = ddx * ddx + ddy * ddy;
        }
        const f = (k * k) / d2; // repulsion k²/d, divided by d for the unit vector
        dx[i] = (dx[i] as number) + ddx * f;
        dy[i] = (dy[i] as number) + ddy * f;
        dx[j] = (dx[j] as number) - ddx * f;
        dy[j] = (dy[j] as number) - ddy * f;
      }
    }
    for (const e of edges) {
      if (e.from === e.to) continue;
      const ddx = (x[e.from] as number) - (x[e.to] as number);
      const ddy = (y[e.from] as number) - (y[e.to] as number);
      const d = Math.sqrt(ddx * ddx + ddy * ddy);
      const f = (d * e.weight) / k; // attraction d²/k, divided by d for the unit vector
      dx[e.from] = (dx[e.from] as number) - ddx * f;
      dy[e.from] = (dy[e.from] as number) - ddy * f;
      dx[e.to] = (dx[e.to] as number) + ddx * f;
      dy[e.to] = (dy[e.to] as number) + ddy * f;
    }
    for (let i = 0; i < n; i += 1) {
      // A weak pull to the centre keeps unconnected nodes from drifting away.
      const gx = (dx[i] as number) - (x[i] as number) * 0.05;
      const gy = (dy[i] as number) - (y[i] as number) * 0.05;
      const len = Math.sqrt(gx * gx + gy * gy);
      if (len > 0) {
        const move = Math.min(len, temperature);
        x[i] = (x[i] as number) + (gx / len) * move;
        y[i] = (y[i] as number) + (gy / len) * move;
      }
    }
    temperature -= cooling;
  }
}

/**
 * Keeps each node's direction from the centre and the order of distances, but spaces the distances
 * so that every ring holds its share of the area: a dense cluster opens up and a few loose nodes,
 * pushed far out by repulsion, no longer shrink the rest of the picture.
 */
function spreadEvenly(x: Float64Array, y: Float64Array): void {
  const n = x.length;
  let cx = 0;
  let cy = 0;
  for (let i = 0; i < n; i += 1) {
    cx += x[i] as number;
    cy += y[i] as number;
  }
  cx /= n;
  cy /= n;
  const distance = Float64Array.from(x, (_, i) => Math.hypot((x[i] as number) - cx, (y[i] as number) - cy));
  const order = Array.from({ length: n }, (_, i) => i).sort(
    (a, b) => (distance[a] as number) - (distance[b] as number) || a - b,
  );
  order.forEach((i, rank) => {
    const d = distance[i] as number;
    const r = Math.sqrt((rank + 0.5) / n);
    const ux = d > 1e-12 ? ((x[i] as number) - cx) / d : 1;
    const uy = d > 1e-12 ? ((y[i] as number) - cy) / d : 0;
    x[i] = ux * r;
    y[i] = uy * r;
  });
}

function normalise(x: Float64Array, y: Float64Array): void {
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < x.length; i += 1) {
    minX = Math.min(minX, x[i] as number);
    maxX = Math.max(maxX, x[i] as number);
    minY = Math.min(minY, y[i] as number);
    maxY = Math.max(maxY, y[i] as number);
  }
  const span = Math.max(maxX - minX, maxY - minY, 1e-9);
  const cx = (minX + maxX) / 2;
  const cy = (minY + maxY) / 2;
  for (let i = 0; i < x.length; i += 1) {
    x[i] = (((x[i] as number) - cx) / span) * 2;
    y[i] = (((y[i] as number) - cy) / span) * 2;
  }
}
