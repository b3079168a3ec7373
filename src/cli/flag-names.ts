/**
 * @module cli/flag-names
 * A bad value the user typed as a flag is named by that flag: the engine checks a command's input by its fields
 * (`invalid memory: validFrom: must be an ISO date …`), and the command line says `--valid-from: …` instead, for
 * every option of the command that ran which was given on the command line. One place for every command.
 */
import type { Command } from 'commander';

/** `message` with each field reference (at its start or after `: ` / `; `) of a given option written as its flag. */
export function withFlagNames(message: string, command: Command | undefined): string {
  if (command === undefined) return message;
  let out = message;
  for (const option of command.options) {
    const field = option.attributeName();
    if (option.long === undefined || command.getOptionValueSource(field) !== 'cli') continue;
    const escaped = field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    out = out.replace(new RegExp(`(^|: |; )${escaped}(?=[:.[])`, 'g'), `$1${option.long}`);
  }
  return out;
}
