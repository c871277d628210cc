import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, topicTemplates, utcOffsetMinutes } from '../src/config.ts';

describe('live-data configuration', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config.MQTT_PORT).toBe(1883);
    expect(config.HISTORY_RAW_DAYS).toBe(90);
    expect(topicTemplates(config).data).toBe('sluice/{groupId}/{deviceSn}/data');
    expect(utcOffsetMinutes(config)).toBe(480);
  });

  it('stops start-up on a bad value, naming the variable', () => {
    const bad: [Record<string, string>, RegExp][] = [
      [{ MQTT_TOPIC_DATA: 'sluice/{groupId}/data' }, /MQTT_TOPIC_DATA: not a usable topic template: must contain \{deviceSn\}/],
      [
        { MQTT_TOPIC_ERROR: 'sluice/{groupId}/{deviceSn}/data' },
        /MQTT_TOPIC_DATA: the topic templates of two kinds cannot be told apart/,
      ],
      [{ MQTT_URL: 'http://broker' }, /MQTT_URL/],
      [{ MQTT_USERNAME: 'sluice' }, /MQTT_USERNAME and MQTT_PASSWORD must be set together/],
      [{ MQTT_HOOK_SECRET: 'short' }, /MQTT_HOOK_SECRET/],
      [{ UTC_OFFSET: 'Asia/Shanghai' }, /UTC_OFFSET/],
      [{ DEVICE_TIMEOUT: '5' }, /DEVICE_TIMEOUT/],
      [{ HISTORY_RAW_DAYS: '-1' }, /HISTORY_RAW_DAYS/],
    ];
    for (const [env, message] of bad) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(message);
    }
  });

  it('maps the topics of existing gateways', () => {
    const config = loadConfig({ MQTT_TOPIC_DATA: 'station/{deviceSn}/up', MQTT_TOPIC_CMD: 'station/{deviceSn}/down' });
    expect(topicTemplates(config)).toMatchObject({ data: 'station/{deviceSn}/up', cmd: 'station/{deviceSn}/down' });
  });
});
