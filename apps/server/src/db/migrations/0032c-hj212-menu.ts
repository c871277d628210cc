/** The HJ 212 screen (/sys/hj212, issue 21) under System Configure for existing groups. */
import type { Kysely } from 'kysely';
import { addSystemScreen } from './add-system-screen.ts';

export const up = (db: Kysely<unknown>) => addSystemScreen(db, { name: 'HJ 212', path: '/sys/hj212', componentUrl: 'sys/hj212' });
