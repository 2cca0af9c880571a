/**
 * A test double for `game.settings`: records what the system registers, and answers get/set
 * from a plain map. It makes up nothing the tests assert on: tests check what our code
 * registered.
 */
export interface RecordedSetting {
  namespace: string;
  key: string;
  config: Record<string, unknown>;
}

export class SettingsDouble {
  readonly registered: RecordedSetting[] = [];
  readonly values = new Map<string, unknown>();

  register(namespace: string, key: string, config: Record<string, unknown>): void {
    if (this.registered.some((s) => s.namespace === namespace && s.key === key)) {
      throw new Error(`Setting ${namespace}.${key} registered twice.`);
    }
    this.registered.push({ namespace, key, config });
    this.values.set(`${namespace}.${key}`, config.default);
  }

  get(namespace: string, key: string): unknown {
    const id = `${namespace}.${key}`;
    if (!this.values.has(id)) throw new Error(`Setting ${id} is not registered.`);
    return this.values.get(id);
  }

  set(namespace: string, key: string, value: unknown): Promise<unknown> {
    this.values.set(`${namespace}.${key}`, value);
    return Promise.resolve(value);
  }
}
