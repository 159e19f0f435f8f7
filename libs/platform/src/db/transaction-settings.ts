import type { Statement } from './prepared-statements';

/** Server settings by name (`work_mem`, `statement_timeout`, …) and their values as text. */
export type TransactionSettings = Record<string, string>;

/**
 * One statement setting each of `settings` for the rest of the caller's transaction only
 * (`set_config(name, value, true)`): a read that needs its own time bound, sort memory or planner
 * switches runs it first, in the same transaction. Later sets win over earlier ones.
 */
export function transactionSettingsStatement(...settings: TransactionSettings[]): Statement {
  const all = Object.entries(Object.assign({}, ...settings) as TransactionSettings);
  return {
    sql: `select ${all.map(() => 'set_config(?, ?, true)').join(', ')}`,
    params: all.flat(),
  };
}
