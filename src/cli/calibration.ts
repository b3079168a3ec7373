/**
 * @module cli/calibration
 * `credence calibration [--kind K] [--json]` (issue 24, item 2): per kind of claim, the reliability table of
 * the confidences shown against what became of them (10 bins: mean confidence, observed rate, count), the ECE
 * and Brier score, how many outcomes stand behind them, and, with enough outcomes, the learned map's own figures
 * (learned on the earlier half, measured on the later) and which calibrator its results use. `--now` counts only the
 * outcomes known by then.
 */
import type { Command } from 'commander';
import { parseOutcomeKind } from '../core/outcomes.js';
import { SELECTION_DEFAULTS, type Calibrator } from '../core/calibration/index.js';
import type { CalibrationReport, KindCalibration } from '../engine/calibration.js';
import { printJson, withCredence, type CommandContext } from './context.js';

const f3 = (v: number | null): string => (v === null ? '—' : v.toFixed(3));

type Selection = NonNullable<KindCalibration['selection']>;

/**
 * What the chosen calibrator is and why, in the line saying which one results use; for the logistic calibrator the
 * reason the selection gives (`seedRefuted`), as the dashboard says it: the seed refuted, or the choice beaten.
 */
function choiceOf(s: Selection): string {
  if (s.calibrator === 'seed') return 'the seed confidence itself, as nothing learned beat it';
  if (s.calibrator === 'base-rate') return "the kind's base rate, which beat the seed and did best of those that did";
  if (s.calibrator === 'map') return 'the learned map, which beat the seed';
  if (s.seedRefuted)
    return (
      "the logistic calibrator, as Cox's test refuted the seed on the newest outcomes " +
      'and it did better than the seed'
    );
  const over = { seed: 'the seed', 'base-rate': 'the base rate', map: 'the map' }[s.logisticOverChoice.over];
  return `the logistic calibrator, which beat ${over} (the choice among the others) by more than a standard error`;
}

function kindLines(k: KindCalibration, minOutcomes: number): string[] {
  const head =
    `${k.kind}: ${k.outcomes} outcome${k.outcomes === 1 ? '' : 's'} (${k.positives} held true), ` +
    `ECE ${f3(k.ece)}, Brier ${f3(k.brier)}`;
  if (k.outcomes === 0) return [head, '  no outcomes recorded yet: nothing to measure'];
  const rows = k.bins.map(
    (b) =>
      `  ${b.lo.toFixed(1)}–${b.hi.toFixed(1)}   ${String(b.count).padStart(6)}   ` +
      `${f3(b.meanConfidence).padStart(9)}   ${f3(b.observedRate).padStart(8)}`,
  );
  const after =
    k.calibrated === undefined
      ? `  learned map: not used (${k.outcomes} of the ${minOutcomes} outcomes it needs)`
      : `  learned map: ECE ${f3(k.calibrated.ece)}, Brier ${f3(k.calibrated.brier)} against the seed's ` +
        `${f3(k.calibrated.seed.ece)} and ${f3(k.calibrated.seed.brier)} (learned on the earlier ` +
        `${k.calibrated.train} outcomes, measured on the later ${k.calibrated.test})`;
  const chosen =
    k.selection === undefined
      ? []
      : [
          `  results use: ${choiceOf(k.selection)} (out-of-sample Brier over the later ` +
            `${k.selection.tested} of ${k.selection.outcomes}, learned on those before: seed ` +
            `${f3(k.selection.brier.seed)}, base rate ${f3(k.selection.brier['base-rate'])}, ` +
            `logistic ${f3(k.selection.brier.logistic)}, map ${f3(k.selection.brier.map)})`,
          logisticGainLine(k.selection.logisticOverChoice),
          trialLine(k.selection.miscalibration),
          ...(k.selection.calibrator === 'logistic' && k.logistic !== undefined
            ? [
                `  logistic calibrator: probability = σ(${f3(k.logistic.a)} · logit(confidence) ` +
                  `${k.logistic.b < 0 ? '−' : '+'} ${f3(Math.abs(k.logistic.b))})`,
              ]
            : []),
        ];
  return [head, '  bin         count   mean conf   observed', ...rows, after, ...chosen];
}

/** Each calibrator the logistic one may be measured against, as the gain's line names it. */
const NAME: Record<Exclude<Calibrator, 'logistic'>, string> = {
  seed: 'the seed',
  'base-rate': 'base rate',
  map: 'map',
};

/** The gain that decides the logistic calibrator: over the choice among the others, per claim tested. */
function logisticGainLine(d: NonNullable<KindCalibration['selection']>['logisticOverChoice']): string {
  const f4 = (v: number) => v.toFixed(4);
  return (
    `  logistic against ${NAME[d.over]}: Brier ${d.mean < 0 ? 'worse' : 'better'} by ${f4(Math.abs(d.mean))} ` +
    `± ${f4(d.standardError)} (chosen when better by more than ${SELECTION_DEFAULTS.margin} standard error)`
  );
}

/** Cox's test of the seed on the newest half of the outcomes: below the level, the seed counts as refuted. */
function trialLine(t: NonNullable<KindCalibration['selection']>['miscalibration']): string {
  const p = t.pValue < 0.0001 ? t.pValue.toExponential(1) : t.pValue.toFixed(4);
  return (
    `  seed on trial: Cox's test of calibration on the newest ${t.outcomes} outcomes, p ${p} (refuted below ` +
    `${SELECTION_DEFAULTS.significance}; the logistic calibrator then replaces a kept seed it beats at all)`
  );
}

/** Where outcomes come from, closing the report when a kind has none (docs/calibration.md). */
const HOW_RECORDED =
  'outcomes are recorded by credence feedback <shown id> --accepted|--rejected|--succeeded|--failed, ' +
  'by the Claude Code hooks (credence init --claude-code) and by the MCP gateway (credence serve --gateway) ' +
  'as results are used; see docs/calibration.md';

/** What the figures mean, under the report's first line: a newcomer read "ECE" and "Brier" with nothing saying how. */
const LEGEND =
  'ECE: the mean gap between confidence and how often it held true (0 is perfect); ' +
  'Brier: the mean squared error of the confidence against what happened (lower is better); see docs/calibration.md';

/** The report as text, one block per kind; a closing line on how outcomes get recorded when a kind has none. */
export function calibrationText(report: CalibrationReport): string {
  const blocks = report.kinds.map((k) => kindLines(k, report.minOutcomes).join('\n'));
  const closing = report.kinds.some((k) => k.outcomes === 0) ? `\n${HOW_RECORDED}\n` : '';
  return (
    `calibration of scope ${report.scope} at ${new Date(report.at).toISOString()} ` +
    `(a learned probability needs ${report.minOutcomes} outcomes of a kind)\n${LEGEND}\n\n` +
    `${blocks.join('\n\n')}\n${closing}`
  );
}

export function registerCalibration(program: Command, context: () => CommandContext): void {
  program
    .command('calibration')
    .description(
      'how often the confidences shown were right: per kind, the reliability table, ECE, Brier and the learned map',
    )
    .option('--kind <kind>', 'one kind of claim: search, next, dag, recall, instinct or skill')
    .action(async (options: { kind?: string }) => {
      const ctx = context();
      const kind = options.kind === undefined ? undefined : parseOutcomeKind(options.kind, '--kind');
      const report = await withCredence(ctx, (c) => c.calibration(kind === undefined ? {} : { kind }));
      if (ctx.wantsJson) return printJson(ctx, report);
      ctx.io.stdout(calibrationText(report));
    });
}
