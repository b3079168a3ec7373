/**
 * Claude Code session transcripts written as Claude Code writes them (`<session>.jsonl`, one JSON object a
 * line: `user` / `assistant` lines with `message.content` blocks, `uuid`, `parentUuid`, `sessionId`,
 * `timestamp`, `cwd`, `gitBranch`; a tool's result on a later `user` line with `toolUseResult`), for the
 * import tests (issue 22). Not a test file.
 */

export interface CallResult {
  /** The tool_result block's content (a string, as Claude Code writes it). */
  content: string;
  isError?: boolean;
  /** The line's `toolUseResult` (Bash: {stdout, stderr, interrupted, isImage}; a failure: "Error: …"). */
  toolUseResult?: unknown;
}

export class TranscriptWriter {
  readonly lines: string[] = [];
  #n = 0;
  #last: string | null = null;
  #at: number;

  constructor(
    readonly session: string,
    readonly cwd: string,
    start: string,
  ) {
    this.#at = Date.parse(start);
  }

  #base(type: 'user' | 'assistant', seconds: number): Record<string, unknown> {
    this.#at += seconds * 1000;
    this.#n += 1;
    const uuid = `${this.session.slice(0, 8)}-0000-4000-8000-${String(this.#n).padStart(12, '0')}`;
    const line = {
      parentUuid: this.#last,
      isSidechain: false,
      userType: 'external',
      cwd: this.cwd,
      sessionId: this.session,
      version: '2.0.49',
      gitBranch: 'main',
      type,
      uuid,
      timestamp: new Date(this.#at).toISOString(),
    };
    this.#last = uuid;
    return line;
  }

  /** A person's prompt. */
  prompt(text: string, seconds = 30): this {
    this.lines.push(JSON.stringify({ ...this.#base('user', seconds), message: { role: 'user', content: text } }));
    return this;
  }

  /** A tool call (an assistant line) and, a second later, its result (a user line). */
  call(tool: string, input: unknown, result: CallResult, seconds = 5): this {
    const id = `toolu_${this.session.slice(0, 4)}${String(this.#n + 1).padStart(20, '0')}`;
    this.lines.push(
      JSON.stringify({
        ...this.#base('assistant', seconds),
        message: {
          id: `msg_${String(this.#n).padStart(24, '0')}`,
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5-20250929',
          content: [{ type: 'tool_use', id, name: tool, input }],
          stop_reason: 'tool_use',
          stop_sequence: null,
          usage: { input_tokens: 5, output_tokens: 20 },
        },
        requestId: `req_${this.#n}`,
      }),
    );
    this.lines.push(
      JSON.stringify({
        ...this.#base('user', 1),
        message: {
          role: 'user',
          content: [
            {
              tool_use_id: id,
              type: 'tool_result',
              content: result.content,
              ...(result.isError === undefined ? {} : { is_error: result.isError }),
            },
          ],
        },
        ...(result.toolUseResult === undefined ? {} : { toolUseResult: result.toolUseResult }),
      }),
    );
    return this;
  }

  /** An assistant's text answer. */
  answer(text: string): this {
    this.lines.push(
      JSON.stringify({
        ...this.#base('assistant', 2),
        message: { role: 'assistant', type: 'message', content: [{ type: 'text', text }], stop_reason: 'end_turn' },
      }),
    );
    return this;
  }

  raw(line: string): this {
    this.lines.push(line);
    return this;
  }

  text(): string {
    return `${this.lines.join('\n')}\n`;
  }

  /** The lines written since the last take (for a file written a part at a time). */
  take(): string {
    const text = this.text();
    this.lines.length = 0;
    return text;
  }
}

export const bashOk = (stdout: string): CallResult => ({
  content: stdout,
  toolUseResult: { stdout, stderr: '', interrupted: false, isImage: false },
});

export const bashFailed = (code: number, output: string): CallResult => ({
  content: `Exit code ${code}\n${output}`,
  isError: true,
  toolUseResult: `Error: Exit code ${code}\n${output}`,
});
