// Disposes what a test made (temp folders, servers, child processes) when it ends, so nothing outlives it.
//
// test/setup.ts runs the hooks below in every test file. What is made inside a test (or its
// beforeEach) is disposed after that test; what is made outside one (beforeAll, a describe body,
// module scope) after the file. A disposer that throws fails the test (or the file) it belongs to.

type Disposer = () => unknown;

const testScope: Disposer[] = [];
const fileScope: Disposer[] = [];
let inTest = false;

/** Runs `dispose` when the current test ends, or when the file ends if no test is running. */
export function deferCleanup(dispose: Disposer): void {
  (inTest ? testScope : fileScope).push(dispose);
}

/** Runs `dispose` when the current file ends, even from inside a test: for what later tests of the file reuse. */
export function deferFileCleanup(dispose: Disposer): void {
  fileScope.push(dispose);
}

export function enterTest(): void {
  inTest = true;
}

export async function leaveTest(): Promise<void> {
  inTest = false;
  await drain(testScope);
}

export function leaveFile(): Promise<void> {
  return drain(fileScope);
}

/** Newest first, like a stack: a folder is removed after the process that wrote into it has ended. */
async function drain(list: Disposer[]): Promise<void> {
  const errors: unknown[] = [];
  while (list.length > 0) {
    const dispose = list.pop()!;
    try {
      await dispose();
    } catch (err) {
      errors.push(err);
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, errors.map(String).join('\n'));
}
