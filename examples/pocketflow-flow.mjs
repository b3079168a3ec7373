#!/usr/bin/env node
/**
 * A PocketFlow flow recorded by Credence (SPEC §7, seed 002).
 *
 *   npm install                                  # also builds dist/
 *   node examples/pocketflow-flow.mjs            # a fresh database in a temporary folder
 * node examples/pocketflow-flow.mjs --db runs.db # keep the runs, then: npx credence runs --db runs.db --scope
 * pocketflow-example
 *
 * The flow researches a topic and writes a summary: SearchWeb → (a nested flow: WriteDraft, which
 * fails once and succeeds on its retry → VerifyDraft) → FetchQuotes (its source is down, its
 * execFallback answers from a cache: a partial outcome) → Publish. Nothing in the nodes knows about
 * Credence: the one line that matters is `instrumentFlow(flow, { credence, intent })`.
 */
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { instrumentFlow, openCredence } from '../dist/src/index.js';

// pocketflow 1.0.4's ESM entry (`exports.import`) names a file some installs lack: load its CommonJS build.
const { Flow, Node } = createRequire(import.meta.url)('pocketflow');

// ---- an ordinary PocketFlow flow -------------------------------------------------------------

class SearchWeb extends Node {
  async prep(shared) {
    return shared.topic;
  }
  async exec(topic) {
    return [`${topic} pollinate a third of our food crops`, `${topic} communicate by dancing`];
  }
  async post(shared, _topic, results) {
    shared.results = results;
  }
}

class WriteDraft extends Node {
  constructor() {
    super(3, 0); // up to 3 attempts, no wait
    this.attempts = 0;
  }
  async prep(shared) {
    return shared.results;
  }
  async exec(results) {
    this.attempts += 1;
    if (this.attempts === 1) throw new Error('the model timed out');
    return `Did you know? ${results.join('; ')}.`;
  }
  async post(shared, _results, draft) {
    shared.draft = draft;
  }
}

class VerifyDraft extends Node {
  async prep(shared) {
    return shared.draft;
  }
  async exec(draft) {
    return draft.length > 20 ? 'ok' : 'too short';
  }
  async post(shared, _draft, verdict) {
    shared.verdict = verdict;
  }
}

class FetchQuotes extends Node {
  async exec() {
    throw new Error('quotes service unavailable');
  }
  async execFallback() {
    return ['"The bee is more honored than other animals" (Saint John Chrysostom), from the cache'];
  }
  async post(shared, _prep, quotes) {
    shared.quotes = quotes;
  }
}

class Publish extends Node {
  async prep(shared) {
    return { draft: shared.draft, verdict: shared.verdict, quotes: shared.quotes };
  }
  async exec({ draft, verdict, quotes }) {
    return verdict === 'ok' ? `${draft}\n> ${quotes[0]}` : undefined;
  }
  async post(shared, _prep, article) {
    shared.article = article;
    return 'published';
  }
}

const search = new SearchWeb();
const write = new WriteDraft();
write.next(new VerifyDraft());
const drafting = new Flow(write); // a flow used as a node of the outer flow
search.next(drafting).next(new FetchQuotes()).next(new Publish());
const flow = new Flow(search);

// ---- recorded by Credence --------------------------------------------------------------------

const dbFlag = process.argv.indexOf('--db');
const db =
  dbFlag >= 0 && process.argv[dbFlag + 1]
    ? process.argv[dbFlag + 1]
    : join(mkdtempSync(join(tmpdir(), 'credence-pocketflow-')), 'credence.db');
const credence = await openCredence({ db, scope: 'pocketflow-example' });

try {
  const recorded = instrumentFlow(flow, {
    credence,
    intent: 'research bees and write a short article',
    nodes: new Map([[drafting, { name: 'flow:draft', intent: 'implementation' }]]),
  });
  const shared = { topic: 'honey bees' };
  await recorded.run(shared); // exactly flow.run(shared), recorded

  const run = recorded.lastRun;
  console.log(`database: ${db}\n`);
  console.log(`article:\n${shared.article}\n`);
  console.log(`run ${run.executionId}: "${run.intent}" (intent ${run.intentKind})`);
  console.log(`run confidence: ${run.confidence.toFixed(3)} (the mean of its nodes')\n`);
  console.log('node                intent          outcome   retries  used by  confidence');
  for (const n of run.nodes) {
    console.log(
      `${n.name.padEnd(20)}${n.intent.padEnd(16)}${n.status.padEnd(10)}` +
        `${String(n.retries).padEnd(9)}${String(n.downstreamUses).padEnd(9)}` +
        `${n.confidence.toFixed(2)} = ${n.parts.base} − ${n.parts.retryPenalty} + ${n.parts.downstreamBoost}`,
    );
  }
  console.log(`\nsummary: ${run.summary}\n`);
  console.log('tool graph learned:');
  for (const e of await credence.edges())
    console.log(`  ${e.type.padEnd(10)} ${e.from} → ${e.to}  (confidence ${e.confidence.toFixed(2)})`);
  console.log(`\nlist the recorded runs: npx credence runs --db ${db} --scope pocketflow-example`);
} finally {
  await credence.close();
}
