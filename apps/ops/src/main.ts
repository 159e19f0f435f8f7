import 'reflect-metadata';
import { runOps } from './ops-cli';

// `npm run ops -- <command> [--json]`; lingering handles (pools, timers) never hold the exit
void runOps(process.argv.slice(2)).then((status) => process.exit(status));
