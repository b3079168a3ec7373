/**
 * @module bench/chromium
 * Where the headless Chromium of the dashboard's browser tests and bench is: `CREDENCE_CHROMIUM`,
 * else Debian's /usr/bin/chromium when it is installed (never a downloaded browser), the launch
 * flags that work as root in a container, and the page's globals as the tests and the bench read
 * them.
 */
import { existsSync } from 'node:fs';

export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.CREDENCE_CHROMIUM !== undefined && env.CREDENCE_CHROMIUM !== '') return env.CREDENCE_CHROMIUM;
  return existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;
}

export const CHROMIUM_ARGS: readonly string[] = Object.freeze([
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]);

export const NO_CHROMIUM = 'no Chromium (set CREDENCE_CHROMIUM or apt-get install chromium)';

/**
 * What the tests and the bench read in the dashboard's page, typed here because the project is
 * type-checked without the DOM's types. Page code is given to playwright as functions (never as
 * text, which the page's CSP refuses to evaluate), each reading `globalThis as unknown as
 * DashboardWindow`; a function runs in the page, so it may use nothing from the file around it.
 */
export interface DashboardWindow {
  document: { body: { dataset: Record<string, string | undefined> } | null };
  performance: { getEntriesByType: (type: string) => { domContentLoadedEventEnd?: number }[] };
  credenceGraph?: {
    /** Tools and edges in the data. */
    nodeCount: number;
    edgeCount: number;
    /** Tools and edges the last draw put on the canvas, counted by its loops. */
    drawnNodes: number;
    drawnEdges: number;
    /** performance.now() when the first draw ended. */
    renderedAt: number | undefined;
    /** Where tool `id` is on the screen (client coordinates), for a click. */
    screenPosition: (id: string) => { x: number; y: number } | null;
    /** The canvas's pixel [r, g, b, a] at a client point; [0, 0, 0, 0] where nothing is drawn. */
    pixelAt: (x: number, y: number) => number[];
    /** The discs of the drawn tools (client coordinates, radius in CSS pixels), in the data's order. */
    nodeDiscs: () => { id: string; x: number; y: number; r: number }[];
    /** The boxes of the labels the last draw placed (client coordinates). */
    labelBoxes: () => { id: string; x: number; y: number; w: number; h: number }[];
    /** A point on the drawn edge `from` → `to` of `type`, halfway between its tools; null when it is not drawn. */
    edgePoint: (from: string, to: string, type: string) => { x: number; y: number } | null;
  };
}
