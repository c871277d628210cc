/** Box data (/sys/boxData, spec §2: listed in one menu only) becomes a screen under System Configure. */
import type { Kysely } from 'kysely';
import { addSystemScreen } from './add-system-screen.ts';

export const up = (db: Kysely<unknown>) =>
  addSystemScreen(db, { name: 'Box data', path: '/sys/boxData', componentUrl: 'sys/boxData' });
