import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TOPICS,
  TopicCodec,
  parseDeviceTime,
  parseUtcOffset,
  templateProblem,
  templatesProblem,
} from './device-protocol.ts';

describe('topic templates', () => {
  const codec = new TopicCodec();

  it('builds and parses the default topics', () => {
    expect(codec.topic('data', 'SL01', 7)).toBe('sluice/7/SL01/data');
    expect(codec.parse('sluice/7/SL01/data')).toEqual({ kind: 'data', deviceSn: 'SL01', groupId: 7 });
    expect(codec.parse('sluice/7/SL01/cmd')).toEqual({ kind: 'cmd', deviceSn: 'SL01', groupId: 7 });
    expect(codec.parse('sluice/x/SL01/data')).toBeUndefined();
    expect(codec.parse('sluice/7/SL01/data/extra')).toBeUndefined();
    expect(codec.parse('other/7/SL01/data')).toBeUndefined();
  });

  it('parses subscription filters with + for the device or group, never #', () => {
    expect(codec.parseFilter('sluice/7/+/data')).toEqual({ kind: 'data', deviceSn: '+', groupId: 7 });
    expect(codec.parseFilter('sluice/+/+/event')).toEqual({ kind: 'event', deviceSn: '+', groupId: '+' });
    expect(codec.parseFilter('sluice/7/#')).toBeUndefined();
    expect(codec.parseFilter('sluice/7/+/+')).toBeUndefined();
    expect(codec.groupFilter('error', 3)).toBe('sluice/3/+/error');
  });

  it('maps gateways with their own topics, with or without a group', () => {
    const custom = new TopicCodec({ ...DEFAULT_TOPICS, data: 'station/{deviceSn}/up', cmd: 'station/{deviceSn}/down' });
    expect(custom.parse('station/GW9/up')).toEqual({ kind: 'data', deviceSn: 'GW9' });
    expect(custom.topic('cmd', 'GW9', 4)).toBe('station/GW9/down');
  });

  it('refuses unusable templates', () => {
    expect(templateProblem('sluice/{groupId}/data')).toMatch(/deviceSn/);
    expect(templateProblem('sluice/{deviceSn}x/data')).toMatch(/whole topic level/);
    expect(templateProblem('sluice/+/{deviceSn}')).toMatch(/wildcards/);
    expect(templateProblem('$SYS/{deviceSn}')).toMatch(/\$/);
    expect(templatesProblem({ ...DEFAULT_TOPICS, error: 'sluice/{groupId}/{deviceSn}/data' })).toMatch(/own template/);
    expect(() => new TopicCodec({ ...DEFAULT_TOPICS, ack: 'x/{deviceSn}/{deviceSn}' })).toThrow();
  });
});

describe('device times', () => {
  it('reads epoch milliseconds and seconds, local date-times and ISO times', () => {
    const t = Date.UTC(2026, 10, 22, 2, 30);
    expect(parseDeviceTime(t, 480)).toBe(t);
    expect(parseDeviceTime(t / 1000, 480)).toBe(t);
    expect(parseDeviceTime(String(t), 480)).toBe(t);
    expect(parseDeviceTime('2026-11-22 10:30:00', 480)).toBe(t);
    expect(parseDeviceTime('2026-11-22 10:30', 480)).toBe(t);
    expect(parseDeviceTime('2026-11-22T02:30:00Z', 480)).toBe(t);
    expect(parseDeviceTime('2026-02-30 10:30:00', 480)).toBeUndefined();
    expect(parseDeviceTime('yesterday', 480)).toBeUndefined();
    expect(parseDeviceTime(-5, 480)).toBeUndefined();
  });

  it('reads UTC offsets', () => {
    expect(parseUtcOffset('+08:00')).toBe(480);
    expect(parseUtcOffset('-05:30')).toBe(-330);
    expect(parseUtcOffset('Z')).toBe(0);
    expect(parseUtcOffset('+15:00')).toBeUndefined();
  });
});
