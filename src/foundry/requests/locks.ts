/**
 * Named locks for the GM's writes. Every write that can race takes the lock of the document
 * it changes: `card:<message id>` for every action on an attack card, `actor:<uuid>` for every
 * writer of an actor's Health, Endurance or conditions (cards, the damage API, the turn).
 * Waiters are served first come, first served. Several keys are taken in sorted order, so two
 * writers that need the same pair can never hold one each and wait for ever. A holder that
 * does not finish within the timeout loses the lock: the next waiter goes on, and the late
 * holder's caller is told "timeout" (its work may still land, which the caller must say).
 */

/** Thrown to the caller of {@link LockTable.run} whose work outlived the lock's timeout. */
export class LockTimeout extends Error {
  constructor(readonly keys: readonly string[]) {
    super(`The lock on ${keys.join(", ")} timed out.`);
    this.name = "LockTimeout";
  }
}

/** How long one holder may keep a lock, by default. */
export const LOCK_TIMEOUT_MS = 20_000;

export class LockTable {
  /** Per key, the promise that settles when the current last holder lets go. */
  readonly #tails = new Map<string, Promise<void>>();

  constructor(private readonly timeoutMs: number = LOCK_TIMEOUT_MS) {}

  /** Whether anyone holds or waits for `key`. */
  busy(key: string): boolean {
    return this.#tails.has(key);
  }

  /**
   * Runs `work` holding every key (deduplicated, taken in sorted order). Rejects with
   * {@link LockTimeout} when `work` takes longer than the timeout, and lets the keys go then.
   */
  async run<T>(keys: readonly string[], work: () => Promise<T>): Promise<T> {
    const sorted = [...new Set(keys)].sort();
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Queue on every key at once (so the order of arrival is kept per key), then wait for all.
    const previous = sorted.map((key) => {
      const tail = this.#tails.get(key) ?? Promise.resolve();
      const mine = tail.then(() => released);
      this.#tails.set(key, mine);
      return { key, tail, mine };
    });
    try {
      await Promise.all(previous.map((p) => p.tail));
      return await this.#withTimeout(sorted, work);
    } finally {
      release();
      for (const p of previous) if (this.#tails.get(p.key) === p.mine) this.#tails.delete(p.key);
    }
  }

  #withTimeout<T>(keys: readonly string[], work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new LockTimeout(keys));
      }, this.timeoutMs);
      work().then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }
}

/** What a writer below the router checks its keys against: the request's {@link LockScope}. */
export interface WriteScope {
  require(...keys: readonly string[]): void;
}

/** Thrown when code writes a document whose lock its request did not declare (a bug in the query's `lockKeys`). */
export class LockScopeError extends Error {
  constructor(
    readonly key: string,
    readonly held: readonly string[],
  ) {
    super(`This request writes "${key}" without holding its lock; the query must declare it in lockKeys (it holds ${held.length > 0 ? held.join(", ") : "nothing"}).`);
    this.name = "LockScopeError";
  }
}

/**
 * The locks one request holds, handed down from the router (router.ts) to everything the
 * request writes through: the handler, the turn engine, its Foundry host, the bridge, the
 * actor writers. Nothing below the router takes a lock; each writer asks the scope whether
 * the document's key is held ({@link LockScope.require}), and a key the query did not declare
 * is an error, never a second wait on a lock (which is how a holder would wait on itself).
 */
export class LockScope implements WriteScope {
  readonly #keys: ReadonlySet<string>;

  constructor(keys: Iterable<string>) {
    this.#keys = new Set(keys);
  }

  /** Every key held, sorted. */
  get keys(): readonly string[] {
    return [...this.#keys].sort();
  }

  holds(key: string): boolean {
    return this.#keys.has(key);
  }

  /** Throws {@link LockScopeError} unless every key is held. */
  require(...keys: readonly string[]): void {
    for (const key of keys) if (!this.#keys.has(key)) throw new LockScopeError(key, this.keys);
  }

  /** Runs `work` after checking every key is held (a write that used to take those locks itself). */
  async within<T>(keys: readonly string[], work: () => Promise<T>): Promise<T> {
    this.require(...keys);
    return work();
  }
}
