// Committing results strictly in input order when the tasks that produce them finish in any order (a
// pool of workers scores chunks in parallel): a result waits until every earlier one is committed.
// scoreFile's pipeline and the web app's engine both commit through it, so output rows, statistics and
// the exact sums are folded in the order of the input whatever the number of workers.

/** Numbers tasks as they are submitted and commits their results in that order. */
export class InOrderCommitter<T> {
  readonly #commit: (value: T, seq: number) => void;
  readonly #waiting = new Map<number, T>();
  #next = 0;
  #submitted = 0;
  #halted = false;

  /** `commit` is called once per task, in submission order; a throw halts the committer. */
  constructor(commit: (value: T, seq: number) => void) {
    this.#commit = commit;
  }

  /** The sequence number of a new task; its result is `settle`d with it. */
  submit(): number {
    return this.#submitted++;
  }

  /**
   * A task's result: committed at once when every earlier task's is, else kept until they are (and then
   * the results waiting after it are committed too). A throwing `commit` halts the committer and the
   * error is thrown here.
   */
  settle(seq: number, value: T): void {
    this.#waiting.set(seq, value);
    while (!this.#halted && this.#waiting.has(this.#next)) {
      const v = this.#waiting.get(this.#next)!;
      this.#waiting.delete(this.#next);
      const s = this.#next++;
      try {
        this.#commit(v, s);
      } catch (e) {
        this.#halted = true;
        throw e;
      }
    }
  }

  /** Commit nothing more (a failed run keeps what it committed so far). */
  halt(): void {
    this.#halted = true;
    this.#waiting.clear();
  }

  /** Tasks submitted and not yet committed. */
  get uncommitted(): number {
    return this.#submitted - this.#next;
  }
}
