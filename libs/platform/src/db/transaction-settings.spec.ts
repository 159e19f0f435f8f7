import { transactionSettingsStatement } from './transaction-settings';

describe('transactionSettingsStatement', () => {
  it('sets every setting for the transaction only, in one statement, later sets winning', () => {
    expect(transactionSettingsStatement({ work_mem: '16MB', jit: 'off' }, { work_mem: '32MB' })).toEqual({
      sql: 'select set_config(?, ?, true), set_config(?, ?, true)',
      params: ['work_mem', '32MB', 'jit', 'off'],
    });
  });
});
