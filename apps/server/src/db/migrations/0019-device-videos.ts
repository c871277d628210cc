/**
 * A device's cameras (spec §3 DeviceVideo, §7 {kind}/{deviceSn}/DeviceVideo): an EZVIZ camera
 * (serial, channel, verification code, the account's app key and secret, sealed) or a generic
 * HLS stream, and the provider's access token cached until it expires (sealed too).
 */
import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import { dialectTypes, type DialectName } from '../dialect-types.ts';

export const up = async (db: Kysely<unknown>, dialect: DialectName) => {
  const t = dialectTypes(dialect);
  const text = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo('');
  await t
    .id(db.schema.createTable('device_videos'))
    .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id'))
    .addColumn('device_sn', 'text', (c) => c.notNull())
    .addColumn('video_name', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull().defaultTo('hls'))
    .addColumn('video_sn', 'text', text)
    .addColumn('channel', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('security_code', 'text', text)
    .addColumn('url', 'text', text)
    .addColumn('playback_url', 'text', text)
    .addColumn('app_key', 'text', text)
    .addColumn('secret', 'text', text)
    .addColumn('access_token', 'text', text)
    // Epoch milliseconds; a double holds them exactly and reads back as a number on both databases.
    .addColumn('expire_time', 'double precision')
    .execute();
  await db.schema.createIndex('device_videos_device_idx').on('device_videos').columns(['group_id', 'device_sn']).execute();
};
