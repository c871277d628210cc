/**
 * EZVIZ's player kit: the settings a camera's ezopen:// address is played with, and the script
 * loader (loaded once, given up on when blocked or after its timeout, and loaded afresh on retry).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { kitErrorText, kitFailureMessage, kitPlayerSettings, loadEzvizKit } from './ezviz-kit';

const scriptOf = (src: string) => document.head.querySelector<HTMLScriptElement>(`script[src="${src}"]`);

describe('kitPlayerSettings', () => {
  it('passes the address, the token and the platform, in the stage’s size, with the live controls', () => {
    expect(
      kitPlayerSettings({
        id: 'ezviz-kit-1',
        url: ' ezopen://open.ys7.com/C12345678/1.live ',
        accessToken: 'at.token',
        apiUrl: 'https://open.ys7.com/',
        staticPath: '/ezuikit/9.0.22/ezuikit_static/',
        language: 'zh-CN',
        width: 640.4,
        height: 359.6,
      }),
    ).toEqual({
      id: 'ezviz-kit-1',
      url: 'ezopen://open.ys7.com/C12345678/1.live',
      accessToken: 'at.token',
      width: 640,
      height: 360,
      template: 'pcLive',
      env: { domain: 'https://open.ys7.com' },
      staticPath: '/ezuikit/9.0.22/ezuikit_static',
      audio: false,
      language: 'zh',
    });
  });

  it('leaves the decoders to the kit’s own default when the server names no place, and speaks English to others', () => {
    const settings = kitPlayerSettings({
      id: 'k',
      url: 'ezopen://open.ys7.com/C12345678/1.live',
      accessToken: 't',
      apiUrl: 'https://open.ys7.com',
      staticPath: null,
      language: 'en-US',
      width: 640,
      height: 360,
    });
    expect(settings).not.toHaveProperty('staticPath');
    expect(settings.language).toBe('en');
  });

  it('plays recordings with the playback controls, and never in a box too small to see', () => {
    const settings = kitPlayerSettings({
      id: 'k',
      url: 'ezopen://open.ys7.com/C12345678/1.cloud.rec?begin=20261126000000',
      accessToken: 't',
      apiUrl: 'http://127.0.0.1:3213',
      staticPath: null,
      language: 'en-US',
      width: 0,
      height: 0,
    });
    expect(settings.template).toBe('pcRec');
    expect([settings.width, settings.height]).toEqual([320, 180]);
    expect(settings.env.domain).toBe('http://127.0.0.1:3213');
  });
});

describe('the kit’s failures', () => {
  it('takes the words of a stream that could not be opened or broke, and leaves the kit’s other notes alone', () => {
    expect(kitFailureMessage('设备不在线', 'fetchError')).toBe('设备不在线');
    expect(kitFailureMessage('Play failed, please check the device and client network', 'socketError')).toBe(
      'Play failed, please check the device and client network',
    );
    expect(kitFailureMessage('', 'playError')).toBe('playError');
    expect(kitFailureMessage('Talk failed', 'talkError')).toBeUndefined();
    expect(kitFailureMessage('PTZ failed', 'ptzError')).toBeUndefined();
    expect(kitFailureMessage('x', undefined)).toBeUndefined();
  });

  it('reads the message of the kit’s error callback', () => {
    expect(kitErrorText({ msg: ' 取流失败 ', code: 5402, type: 'handleError' })).toBe('取流失败');
    expect(kitErrorText({ retcode: -1 })).toBeUndefined();
    expect(kitErrorText('boom')).toBeUndefined();
  });
});

describe('loadEzvizKit', () => {
  afterEach(() => {
    vi.useRealTimers();
    delete window.EZUIKit;
    document.head.querySelectorAll('script').forEach((script) => {
      script.remove();
    });
  });

  it('answers the kit once its script has loaded, and loads it only once', async () => {
    vi.useFakeTimers();
    const src = 'https://kit.example.test/ok.js';
    const first = loadEzvizKit(src, 1000);
    expect(loadEzvizKit(src, 1000)).toBe(first);
    const kit = { EZUIKitPlayer: class {} };
    window.EZUIKit = kit;
    scriptOf(src)?.dispatchEvent(new Event('load'));
    await expect(first).resolves.toBe(kit);
    // The time-out was cleared.
    expect(vi.getTimerCount()).toBe(0);
  });

  it('fails when the script is blocked, and loads it afresh on the next try', async () => {
    const src = 'https://kit.example.test/blocked.js';
    const attempt = loadEzvizKit(src, 1000);
    scriptOf(src)?.dispatchEvent(new Event('error'));
    await expect(attempt).rejects.toThrow('could not be loaded');
    expect(scriptOf(src)).toBeNull();
    const again = loadEzvizKit(src, 1000);
    expect(again).not.toBe(attempt);
    expect(scriptOf(src)).not.toBeNull();
    scriptOf(src)?.dispatchEvent(new Event('error'));
    await expect(again).rejects.toThrow();
  });

  it('gives up when nothing arrives in time, or the script defines no kit', async () => {
    vi.useFakeTimers();
    const slow = loadEzvizKit('https://kit.example.test/slow.js', 1000);
    const rejected = expect(slow).rejects.toThrow('did not load within 1000 ms');
    await vi.advanceTimersByTimeAsync(1000);
    await rejected;

    const empty = 'https://kit.example.test/empty.js';
    const attempt = loadEzvizKit(empty, 1000);
    scriptOf(empty)?.dispatchEvent(new Event('load'));
    await expect(attempt).rejects.toThrow('did not define EZUIKit');
  });
});
