/**
 * The video panel: 暂无数据 and the placeholder before any camera, a delete only after
 * 是否删除“{name}”摄像头？, §8's messages with the server's reason when the token or the
 * playback query fails, no playback without recorded segments, and an ezopen:// camera whose
 * EZVIZ player kit cannot be loaded falling back to its HLS address (or offering a retry), or
 * whose kit says the stream failed showing the kit's words with a refresh.
 */
import { describe, expect, it } from 'vitest';
import { App, ConfigProvider } from 'antd';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DeviceVideoDto } from '@sluice/shared/video.schema';
import { changeLanguage } from '../../../lib/i18n';
import { fakeApi, type FakeHandler } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render';
import { setUpWorkbenchTests } from '../../../test/workbench';
import { VideoPanel } from './video-panel';

const SN = 'SLC000000009';
const LIST = `/api/7/${SN}/DeviceVideo`;
const camera = (fields: Partial<DeviceVideoDto>): DeviceVideoDto => ({
  Id: 5,
  DeviceSn: SN,
  VideoName: '前门',
  Provider: 'hls',
  VideoSn: '',
  Channel: 1,
  SecurityCode: '',
  Url: 'https://video.example.test/front.m3u8',
  PlaybackUrl: '',
  Appkey: '',
  Secret: '',
  ...fields,
});

function setUp(handlers: Record<string, FakeHandler>) {
  const api = fakeApi(handlers);
  renderRoutes(
    [
      {
        path: '/',
        element: (
          <ConfigProvider theme={{ token: { motion: false } }}>
            <App>
              <VideoPanel sn={SN} />
            </App>
          </ConfigProvider>
        ),
      },
    ],
    '/',
  );
  return api;
}

setUpWorkbenchTests();

describe('the video panel', () => {
  it('says 暂无数据 and asks to choose or add a camera while there is none', async () => {
    await changeLanguage('zh-CN');
    setUp({ [`GET ${LIST}`]: () => ({ data: [] }) });
    expect(await screen.findByText('暂无数据', { selector: '.ant-empty-description' })).toBeTruthy();
    expect(screen.getByText('请从左侧列表选择或添加摄像头')).toBeTruthy();
    expect(screen.getByRole('button', { name: '添加摄像头' })).toBeTruthy();
  });

  it('deletes a camera only after 是否删除“{name}”摄像头？ is answered', async () => {
    await changeLanguage('zh-CN');
    const api = setUp({
      [`GET ${LIST}`]: () => ({ data: [camera({})] }),
      'DELETE /api/DeviceVideo/5': () => ({ data: null, message: '已删除' }),
    });
    await userEvent.click(await screen.findByRole('button', { name: '删除 前门' }));
    const question = await screen.findByText('是否删除“前门”摄像头？');
    const popup = question.closest('.ant-popover') as HTMLElement;
    await userEvent.click(within(popup).getByRole('button', { name: '否' }));
    expect(api.callsTo('DELETE', '/api/DeviceVideo/5')).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: '删除 前门' }));
    const again = (await screen.findAllByText('是否删除“前门”摄像头？')).at(-1)?.closest('.ant-popover') as HTMLElement;
    await userEvent.click(within(again).getByRole('button', { name: '是' }));
    await waitFor(() => {
      expect(api.callsTo('DELETE', '/api/DeviceVideo/5')).toHaveLength(1);
    });
  });

  it('says 获取Token失败 with the platform’s reason and asks for no address', async () => {
    await changeLanguage('zh-CN');
    const api = setUp({
      [`GET ${LIST}`]: () => ({ data: [camera({ Provider: 'ezviz', VideoSn: 'E1', Url: '' })] }),
      [`GET ${LIST}/5/Token`]: () => ({ status: 502, success: false, data: null, message: '视频平台拒绝了 AppKey 或 Secret' }),
    });
    await userEvent.click(await screen.findByRole('button', { name: '前门' }));
    expect(await screen.findByText('获取Token失败: 视频平台拒绝了 AppKey 或 Secret')).toBeTruthy();
    expect(api.callsTo('GET', `${LIST}/5/Live`)).toEqual([]);
  });

  it('does not play back when the range holds no recordings', async () => {
    const api = setUp({
      [`GET ${LIST}`]: () => ({ data: [camera({ PlaybackUrl: 'https://video.example.test/vod?from={start}&to={end}' })] }),
      [`GET ${LIST}/5/Live`]: () => ({ data: { Url: 'https://video.example.test/front.m3u8', ExpireTime: null } }),
      [`GET ${LIST}/5/Records`]: () => ({ data: [] }),
    });
    await userEvent.click(await screen.findByRole('button', { name: '前门' }));
    const playback = await screen.findByRole('button', { name: /Playback/ });
    await waitFor(() => {
      expect(playback.hasAttribute('disabled')).toBe(false);
    });
    await userEvent.click(playback);
    const dialog = await screen.findByRole('dialog', { name: 'Choose playback time and type' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Playback failed: no recorded segments found')).toBeTruthy();
    const query = api.callsTo('GET', `${LIST}/5/Records`)[0]?.query;
    expect(query?.get('recType')).toBe('card');
    const [start, end] = [Number(query?.get('startTime')), Number(query?.get('endTime'))];
    // Today, 00:00:00 to 23:59:59 (§9).
    expect(new Date(start).getHours()).toBe(0);
    expect(end - start).toBe(24 * 3600 * 1000 - 1000);
    expect(api.callsTo('GET', `${LIST}/5/Playback`)).toEqual([]);
  });

  describe('an ezopen:// camera whose player kit cannot be loaded', () => {
    const KIT = 'https://kit.example.test/ezuikit.js';
    const configWith = (kitUrl: string) => () => ({
      data: {
        Map: { TileUrl: '', Subdomains: [], GeocoderUrl: null, DefaultCenter: '113.8865,22.609985' },
        Video: { KitUrl: kitUrl, KitStaticPath: '/ezuikit/9.0.22/ezuikit_static', EzvizApiUrl: 'https://open.ys7.com' },
      },
    });
    const ezopen = {
      [`GET ${LIST}`]: () => ({
        data: [camera({ Provider: 'ezviz', VideoSn: 'E1', Url: 'ezopen://open.ys7.com/E1/1.live' })],
      }),
      'GET /api/config/client': configWith(KIT),
      [`GET ${LIST}/5/Token`]: () => ({ data: { AccessToken: 'at.1', ExpireTime: Date.now() + 3_600_000 } }),
    };
    /** The browser refuses the kit's script (blocked, offline). */
    const blockKit = async () => {
      const script = await waitFor(() => {
        const found = document.head.querySelector(`script[src="${KIT}"]`);
        expect(found).not.toBeNull();
        return found as HTMLScriptElement;
      });
      script.dispatchEvent(new Event('error'));
    };

    it('says so and plays the camera’s HLS address instead', async () => {
      await changeLanguage('zh-CN');
      const api = setUp({
        ...ezopen,
        [`GET ${LIST}/5/Live`]: () => ({ data: { Url: 'https://video.example.test/e1.m3u8', ExpireTime: null } }),
      });
      await userEvent.click(await screen.findByRole('button', { name: '前门' }));
      await blockKit();
      expect(await screen.findByText('萤石网页播放器加载失败，改为播放该摄像头的 HLS 视频流')).toBeTruthy();
      expect(api.callsTo('GET', `${LIST}/5/Live`)).toHaveLength(1);
      expect(screen.getByTestId('camera-video')).toBeTruthy();
    });

    it('shows the kit’s own words when it says the stream failed, with a refresh', async () => {
      await changeLanguage('en-US');
      // Another address: this kit loads, and the loader keeps it.
      const loads = 'https://kit.example.test/loads/ezuikit.js';
      setUp({ ...ezopen, 'GET /api/config/client': configWith(loads) });
      await userEvent.click(await screen.findByRole('button', { name: '前门' }));
      const script = await waitFor(() => {
        const found = document.head.querySelector(`script[src="${loads}"]`);
        expect(found).not.toBeNull();
        return found as HTMLScriptElement;
      });
      // A kit that, like EZVIZ's when the platform refuses the address, says so through its 'message' event.
      let constructed: Record<string, unknown> | undefined;
      const listeners: ((text: unknown, type: unknown) => void)[] = [];
      window.EZUIKit = {
        EZUIKitPlayer: class {
          eventEmitter = {
            on: (_event: string, listener: (text: unknown, type: unknown) => void) => listeners.push(listener),
          };
          constructor(settings: Record<string, unknown>) {
            constructed = settings;
          }
        } as never,
      };
      script.dispatchEvent(new Event('load'));
      await waitFor(() => {
        expect(listeners).toHaveLength(1);
      });
      expect(constructed).toMatchObject({ accessToken: 'at.1', staticPath: '/ezuikit/9.0.22/ezuikit_static', language: 'en' });
      act(() => {
        listeners[0]?.('设备不在线', 'fetchError');
      });
      const alert = await screen.findByRole('alert');
      expect(alert.textContent).toContain('Playback failed! Please refresh');
      expect(alert.textContent).toContain('设备不在线');
      expect(within(alert).getByRole('button', { name: 'Refresh' })).toBeTruthy();
      delete window.EZUIKit;
    });

    it('offers to try again when the platform gives no HLS address either', async () => {
      const api = setUp({
        ...ezopen,
        [`GET ${LIST}/5/Live`]: () => ({
          status: 502,
          success: false,
          data: null,
          message: 'The video platform cannot be reached',
        }),
      });
      await userEvent.click(await screen.findByRole('button', { name: '前门' }));
      await blockKit();
      expect(await screen.findByText('EZVIZ’s web player could not be loaded')).toBeTruthy();
      await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
      await waitFor(() => {
        expect(api.callsTo('GET', `${LIST}/5/Token`)).toHaveLength(2);
      });
      await blockKit();
      expect(await screen.findByText('EZVIZ’s web player could not be loaded')).toBeTruthy();
    });
  });
});
