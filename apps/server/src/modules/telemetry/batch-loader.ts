/**
 * Lookups of many keys asked for at about the same time, answered by few queries: the keys
 * asked for in one turn of the event loop are loaded together, at most `maxKeys` a query, and a
 * key already being loaded is not asked for again. A connect storm of 10,000 devices (each
 * looked up on connecting and on its first message, again when its cache entry expires) made
 * 10,000 queries of each kind; on PostgreSQL they filled the pool, and console calls waited
 * behind them for over a minute. (The online service writes its offline transitions the same
 * way: a fleet leaving at once.)
 */
export class BatchLoader<K, V> {
  private readonly load: (keys: K[]) => Promise<Map<K, V>>;
  private readonly maxKeys: number;
  private readonly missing: V;
  /** Keys asked for this turn, and the callers waiting for each. */
  private pending = new Map<K, { resolve: (value: V) => void; reject: (error: unknown) => void }[]>();
  /** Keys being loaded (asked for in an earlier turn). */
  private readonly loading = new Map<K, Promise<V>>();
  private scheduled = false;

  /** `load` answers the values of the keys it found; the others get `missing`. */
  constructor(load: (keys: K[]) => Promise<Map<K, V>>, missing: V, maxKeys = 500) {
    this.load = load;
    this.missing = missing;
    this.maxKeys = maxKeys;
  }

  get(key: K): Promise<V> {
    const loading = this.loading.get(key);
    if (loading) return loading;
    const promise = new Promise<V>((resolve, reject) => {
      const waiting = this.pending.get(key);
      if (waiting) waiting.push({ resolve, reject });
      else this.pending.set(key, [{ resolve, reject }]);
    });
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => {
        this.flush();
      });
    }
    return promise;
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.pending;
    this.pending = new Map();
    const keys = [...batch.keys()];
    for (let i = 0; i < keys.length; i += this.maxKeys) {
      const chunk = keys.slice(i, i + this.maxKeys);
      const loaded = this.load(chunk);
      for (const key of chunk) {
        const value = loaded.then((found) => (found.has(key) ? (found.get(key) as V) : this.missing));
        this.loading.set(key, value);
        void value.then(
          (v) => {
            for (const waiter of batch.get(key) ?? []) waiter.resolve(v);
          },
          (error: unknown) => {
            for (const waiter of batch.get(key) ?? []) waiter.reject(error);
          },
        );
        void value
          .finally(() => {
            if (this.loading.get(key) === value) this.loading.delete(key);
          })
          .catch(() => undefined);
      }
    }
  }
}
