/**
 * A start that cannot go on, told the way an operator needs it: what happened and what to do.
 * `fieldbook` prints both and exits; nothing else about it is shown unless the log level asks.
 */
export class StartupError extends Error {
  readonly whatToDo: string;

  constructor(whatHappened: string, whatToDo: string, options: { cause?: unknown } = {}) {
    super(whatHappened, { cause: options.cause });
    this.name = 'StartupError';
    this.whatToDo = whatToDo;
  }
}
