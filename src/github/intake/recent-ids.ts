// Delivery ids already accepted, so a replayed or redelivered delivery is acknowledged and dropped.
// Bounded: the oldest ids are forgotten first (a Map keeps insertion order).
export class RecentIds {
  readonly #ids = new Map<string, true>();
  readonly #capacity: number;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** Records `id`; false when it was already recorded. */
  add(id: string): boolean {
    if (this.#ids.has(id)) return false;
    this.#ids.set(id, true);
    if (this.#ids.size > this.#capacity) this.#ids.delete(this.#ids.keys().next().value!);
    return true;
  }

  /** Forgets `id`, for a delivery that was accepted but could not be queued (GitHub may send it again). */
  delete(id: string): void {
    this.#ids.delete(id);
  }

  get size(): number {
    return this.#ids.size;
  }
}
