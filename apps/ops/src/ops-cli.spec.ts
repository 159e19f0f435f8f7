import { PassThrough } from 'node:stream';
import { OPS_COMMANDS, UsageError } from './commands';
import { parseInvocation, runOps } from './ops-cli';

const ORG = '0190a0a0-0000-7000-8000-000000000000';

describe('parseInvocation', () => {
  it('reads a command, its flags and --json', () => {
    const invocation = parseInvocation(['plan', '--org', ORG, '--inactive', '--json']);
    expect(invocation).toMatchObject({ json: true, input: { organizationId: ORG, active: false } });
    expect(parseInvocation(['org', `--org=${ORG}`, '--enable'])).toMatchObject({
      json: false,
      input: { organizationId: ORG, disabled: false },
    });
    expect(parseInvocation(['migrate'])).toMatchObject({ json: false, input: undefined });
  });

  it.each([
    [['nope'], /^unknown command "nope"; commands: migrate, plan, org\b/],
    [['plan', '--active'], /^plan: --org is required/],
    [['plan', '--org', ORG], /exactly one of --active, --inactive/],
    [['plan', '--org', ORG, '--active', '--inactive'], /exactly one of --active, --inactive/],
    [['org', '--org', ORG, '--disable', 'extra'], /extra/],
    [['org', '--org', ORG, '--disable', '--force'], /--force/],
    [['migrate', '--json=yes'], /--json/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseInvocation(argv)).toThrow(UsageError);
    expect(() => parseInvocation(argv)).toThrow(message);
  });

  it('answers help for no command', () => {
    expect(parseInvocation([])).toBe('help');
    expect(parseInvocation(['--help'])).toBe('help');
  });

  it('answers the command help for <command> --help, whatever else is on the line', () => {
    expect(parseInvocation(['seed:demo', '--help'])).toEqual({
      help: expect.objectContaining({ name: 'seed:demo' }),
    });
    expect(parseInvocation(['plan', '--org', ORG, '-h'])).toEqual({
      help: expect.objectContaining({ name: 'plan' }),
    });
  });

  it('documents every flag of every command', () => {
    for (const command of OPS_COMMANDS) {
      expect(Object.keys(command.options).sort()).toEqual(Object.keys(command.flags).sort());
    }
  });

  it('has one command per name', () => {
    const names = OPS_COMMANDS.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('runOps', () => {
  const capture = () => {
    const stream = new PassThrough();
    let text = '';
    stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
    return { stream, text: () => text };
  };

  it('prints usage on stdout for help and exits 0', async () => {
    const out = capture();
    const err = capture();
    expect(await runOps([], {}, out.stream, err.stream)).toBe(0);
    expect(out.text()).toContain('npm run ops -- plan --org <organizationId> --active|--inactive');
    expect(err.text()).toBe('');
  });

  it("prints a command's options for `<command> --help` and exits 0, before booting", async () => {
    const out = capture();
    const err = capture();
    expect(
      await runOps(['seed:demo', '--help'], { DATABASE_URL: 'mysql://nope' }, out.stream, err.stream),
    ).toBe(0);
    expect(out.text()).toContain('Usage: npm run ops -- seed:demo [--leads N] [--json]');
    expect(out.text()).toMatch(/--leads +how many leads/);
    expect(out.text()).toMatch(/--json +print the result/);
    expect(err.text()).toBe('');
  });

  it('names DATABASE_URL and the per-command help in the general help', async () => {
    const out = capture();
    expect(await runOps(['--help'], {}, out.stream, capture().stream)).toBe(0);
    expect(out.text()).toContain('DATABASE_URL');
    expect(out.text()).toContain('<command> --help');
  });

  it('turns a configuration error into its one line and exit 1, before booting', async () => {
    const out = capture();
    const err = capture();
    expect(await runOps(['migrate'], { PORT: 'abc' }, out.stream, err.stream)).toBe(1);
    expect(out.text()).toBe('');
    expect(err.text()).toMatch(/^Invalid configuration: PORT [^\n]*\n$/);
  });

  // the cases test/e2e/ops-cli.e2e-spec.ts once ran as six processes; it keeps one for the exit code.
  // The parser cases get a configuration that cannot boot, so reaching it would print another line.
  it.each<[string[], Record<string, string>, RegExp]>([
    [['launch-rockets'], {}, /^unknown command "launch-rockets"/],
    [['plan', '--active'], {}, /^plan: --org is required/],
    [['plan', '--org', 'x', '--active', '--inactive'], {}, /exactly one of --active, --inactive/],
    [['org', '--org', 'x'], {}, /exactly one of --disable, --enable/],
    [['org', '--org', 'x', '--disable', '--force'], {}, /--force/],
    [['migrate'], { DATABASE_URL: 'mysql://nope' }, /^Invalid configuration: DATABASE_URL /],
  ])(
    'refuses %j with exit 1, one line on stderr and nothing on stdout, before booting',
    async (argv, env, message) => {
      const out = capture();
      const err = capture();
      expect(
        await runOps(argv, { DATABASE_URL: 'mysql://never-booted', ...env }, out.stream, err.stream),
      ).toBe(1);
      expect(out.text()).toBe('');
      expect(err.text()).toMatch(/^[^\n]*\n$/);
      expect(err.text()).toMatch(message);
    },
  );
});
