/**
 * The player of one camera (§4): selected → token fetched (EZVIZ) → ready → playing; stop returns
 * to stopped; playback switches to a playback stream with its time line. The controls are
 * disabled while an operation runs. §8's messages say what failed, with the server's reason; a
 * stream that breaks offers a refresh. An EZVIZ camera with an ezopen:// address plays live in
 * EZVIZ's web player kit; when the kit cannot be loaded it says so and plays the camera's HLS
 * address instead (or offers to try again).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, App, Button, Flex, Space, Tag, Tooltip, Typography } from 'antd';
import {
  CaretRightOutlined,
  FullscreenExitOutlined,
  FullscreenOutlined,
  HistoryOutlined,
  StopOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { clientConfigQueryOptions, type VideoConfig } from '../../../lib/client-config';
import { errorMessage } from '../../../lib/form-errors';
import { EZOPEN_URL } from '@sluice/shared/video.schema';
import { cameraCalls, type DeviceVideoDto, type PlaybackRange, type RecordingSegmentDto } from '../api/video-api';
import { EzvizKitPlayer } from './ezviz-kit-player';
import { HlsPlayer, type HlsPlayerHandle } from './hls-player';
import { PlaybackDialog } from './playback-dialog';
import { TimeLine } from './time-line';

type Status = 'selected' | 'token' | 'ready' | 'playing' | 'stopped' | 'failed';

interface Playback {
  range: PlaybackRange;
  segments: RecordingSegmentDto[];
  /** Where the current playback stream starts (epoch ms). */
  from: number;
}

/** §9: the elapsed time is read every second. */
const ELAPSED_POLL_MS = 1000;

const clock = (seconds: number) => {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${String(h)}:${mm}:${ss}` : `${mm}:${ss}`;
};

export function CameraPlayer({ g, sn, camera, switched }: { g: number; sn: string; camera: DeviceVideoDto; switched: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const calls = cameraCalls(g, sn, camera.Id);
  const [status, setStatus] = useState<Status>('selected');
  /** The stream playing, with a number per load so that the same address loaded again starts afresh. */
  const [source, setSource] = useState<{ url: string; load: number }>();
  const url = source?.url;
  const setUrl = (next: string | undefined) => {
    setSource((previous) => (next === undefined ? undefined : { url: next, load: (previous?.load ?? 0) + 1 }));
  };
  const [playback, setPlayback] = useState<Playback>();
  const queryClient = useQueryClient();
  const ezopen = camera.Provider === 'ezviz' && EZOPEN_URL.test(camera.Url.trim());
  /** The kit playing the camera's ezopen:// address, with the token it was given. */
  const [kit, setKit] = useState<{ token: string; config: VideoConfig & { KitUrl: string }; load: number }>();
  /** The kit did not load: playing the HLS address instead, or nothing (try again). */
  const [kitNotice, setKitNotice] = useState<'fallback' | 'retry'>();
  /** Why the stream stopped, in the player's own words (EZVIZ's kit gives them). */
  const [failure, setFailure] = useState<string>();
  const [dialogOpen, setDialogOpen] = useState(false);
  const [elapsed, setElapsed] = useState(0);
  const [fullScreen, setFullScreen] = useState(false);
  const stage = useRef<HTMLDivElement>(null);
  const player = useRef<HlsPlayerHandle>(null);

  const fail = useCallback(
    (text: string, error?: unknown) => {
      void message.error(error === undefined ? text : `${text}: ${errorMessage(error)}`);
    },
    [message],
  );

  // Busy from the start: a selected camera plays at once.
  const [busy, setBusy] = useState(true);
  /** Starts the live stream; the caller has set busy. */
  const playLive = useCallback(
    async (failure: string) => {
      try {
        let token: string | undefined;
        if (camera.Provider === 'ezviz') {
          try {
            token = (await calls.token()).AccessToken;
          } catch (error) {
            fail(t('video.error.token'), error);
            setStatus('selected');
            return;
          }
          setStatus('token');
        }
        setKitNotice(undefined);
        // The server's configuration says where the kit comes from (none: the HLS address plays).
        const video = ezopen ? (await queryClient.query(clientConfigQueryOptions()).catch(() => undefined))?.Video : undefined;
        const kitUrl = video?.KitUrl;
        if (video && kitUrl && token !== undefined) {
          const accessToken = token;
          setPlayback(undefined);
          setUrl(undefined);
          setKit((previous) => ({ token: accessToken, config: { ...video, KitUrl: kitUrl }, load: (previous?.load ?? 0) + 1 }));
          setStatus('ready');
          return;
        }
        const stream = await calls.live();
        setKit(undefined);
        setPlayback(undefined);
        setUrl(stream.Url);
        setStatus('ready');
      } catch (error) {
        fail(failure, error);
        setStatus('selected');
      } finally {
        setBusy(false);
      }
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- calls are rebuilt from these
    [g, sn, camera.Id, camera.Provider, ezopen, queryClient, fail, t],
  );

  // A selected camera plays at once (another camera chosen while one played: a failure is a failed switch).
  useEffect(() => {
    // Opening the camera's stream is the external system this effect follows; its state is set after the calls answer.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    void playLive(switched ? t('video.error.switch') : t('video.error.play'));
  }, [playLive, switched, t]);

  useEffect(() => {
    if (status !== 'playing') return;
    const timer = setInterval(() => {
      setElapsed(player.current?.video?.currentTime ?? 0);
    }, ELAPSED_POLL_MS);
    return () => {
      clearInterval(timer);
    };
  }, [status]);

  useEffect(() => {
    const onChange = () => {
      setFullScreen(document.fullscreenElement !== null && document.fullscreenElement === stage.current);
    };
    document.addEventListener('fullscreenchange', onChange);
    return () => {
      document.removeEventListener('fullscreenchange', onChange);
    };
  }, []);

  /** The kit did not load: the camera's HLS address if the platform gives one, else a retry. */
  const kitUnavailable = async () => {
    setKit(undefined);
    setBusy(true);
    try {
      const stream = await calls.live();
      setKitNotice('fallback');
      setUrl(stream.Url);
      setStatus('ready');
    } catch {
      setKitNotice('retry');
      setStatus('selected');
    } finally {
      setBusy(false);
    }
  };

  const stop = () => {
    try {
      setKit(undefined);
      setUrl(undefined);
      setElapsed(0);
      setStatus('stopped');
    } catch (error) {
      fail(t('video.error.stop'), error);
    }
  };

  const playFrom = async (range: PlaybackRange, segments: RecordingSegmentDto[], from: number) => {
    setBusy(true);
    try {
      const stream = await calls.playback({ ...range, startTime: from });
      setKit(undefined);
      setPlayback({ range, segments, from });
      setElapsed(0);
      setUrl(stream.Url);
      setStatus('ready');
    } catch (error) {
      fail(t('video.error.playback'), error);
    } finally {
      setBusy(false);
    }
  };

  const startPlayback = async (range: PlaybackRange) => {
    setDialogOpen(false);
    setBusy(true);
    let segments: RecordingSegmentDto[];
    try {
      segments = await calls.records(range);
    } catch (error) {
      fail(t('video.error.playback'), error);
      setBusy(false);
      return;
    }
    setBusy(false);
    const first = segments[0];
    if (!first) {
      fail(t('video.error.noSegments'));
      return;
    }
    await playFrom(range, segments, first.StartTime);
  };

  const toggleFullScreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void stage.current?.requestFullscreen();
  };

  const playing = status === 'playing';
  /** Something is on the stage (a stream or the kit). */
  const open = url !== undefined || kit !== undefined;
  const position = playback ? playback.from + elapsed * 1000 : undefined;
  const name = camera.VideoName;

  return (
    <Flex vertical gap={8} className="sluice-video-player">
      <div ref={stage} className="sluice-video-stage" aria-busy={busy}>
        {kit ? (
          <EzvizKitPlayer
            key={kit.load}
            kitUrl={kit.config.KitUrl}
            staticPath={kit.config.KitStaticPath}
            apiUrl={kit.config.EzvizApiUrl}
            url={camera.Url}
            accessToken={kit.token}
            label={t('video.player', { name })}
            onPlaying={() => {
              setStatus('playing');
            }}
            onError={(reason) => {
              setFailure(reason);
              setStatus('failed');
            }}
            onUnavailable={() => {
              void kitUnavailable();
            }}
          />
        ) : source ? (
          <HlsPlayer
            key={source.load}
            ref={player}
            url={source.url}
            label={t('video.player', { name })}
            onPlaying={() => {
              setStatus('playing');
            }}
            onError={() => {
              setFailure(undefined);
              setStatus('failed');
            }}
          />
        ) : (
          <div className="sluice-video-blank">
            <VideoCameraOutlined aria-hidden />
          </div>
        )}
        {kitNotice && status !== 'failed' && (
          <Alert
            className="sluice-video-alert"
            type="warning"
            showIcon
            role="alert"
            title={kitNotice === 'fallback' ? t('video.error.kitFallback') : t('video.error.kit')}
            action={
              kitNotice === 'retry' ? (
                <Button
                  size="small"
                  onClick={() => {
                    setBusy(true);
                    void playLive(t('video.error.play'));
                  }}
                >
                  {t('video.retry')}
                </Button>
              ) : undefined
            }
          />
        )}
        {status === 'failed' && (
          <Alert
            className="sluice-video-alert"
            type="error"
            showIcon
            role="alert"
            title={t('video.error.reload')}
            description={failure}
            action={
              <Button
                size="small"
                onClick={() => {
                  setUrl(undefined);
                  if (playback) void playFrom(playback.range, playback.segments, position ?? playback.from);
                  else {
                    setBusy(true);
                    void playLive(t('video.error.play'));
                  }
                }}
              >
                {t('video.refresh')}
              </Button>
            }
          />
        )}
      </div>
      {playback && (
        <TimeLine
          start={playback.range.startTime}
          end={playback.range.endTime}
          segments={playback.segments}
          position={position}
          onPick={(time) => {
            if (!busy) void playFrom(playback.range, playback.segments, time);
          }}
        />
      )}
      <Flex wrap gap={8} align="center" justify="space-between">
        <Space wrap>
          {open ? (
            <Button icon={<StopOutlined />} disabled={busy} onClick={stop}>
              {t('video.stop')}
            </Button>
          ) : (
            <Button
              type="primary"
              icon={<CaretRightOutlined />}
              disabled={busy}
              loading={busy}
              onClick={() => {
                setBusy(true);
                void playLive(t('video.error.play'));
              }}
            >
              {t('video.play')}
            </Button>
          )}
          {playback ? (
            <Button
              icon={<VideoCameraOutlined />}
              disabled={busy}
              onClick={() => {
                setBusy(true);
                void playLive(t('video.error.play'));
              }}
            >
              {t('video.live')}
            </Button>
          ) : null}
          <Button
            icon={<HistoryOutlined />}
            disabled={busy}
            onClick={() => {
              setDialogOpen(true);
            }}
          >
            {t('video.playback')}
          </Button>
          <Tooltip title={fullScreen ? t('video.reduce') : t('video.fullScreen')}>
            <Button
              icon={fullScreen ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
              aria-label={fullScreen ? t('video.reduce') : t('video.fullScreen')}
              disabled={!open}
              onClick={toggleFullScreen}
            />
          </Tooltip>
        </Space>
        <Space size={4} wrap aria-live="polite">
          <Typography.Text strong>{name}</Typography.Text>
          {busy ? (
            <Tag>{t('video.loading')}</Tag>
          ) : playing ? (
            <Tag color="success">{t('video.playing')}</Tag>
          ) : status === 'stopped' ? (
            <Tag>{t('video.stopped')}</Tag>
          ) : null}
          {playing && (
            <Typography.Text type="secondary" data-testid="video-elapsed">
              {position !== undefined
                ? t('video.at', { time: dayjs(position).format('YYYY-MM-DD HH:mm:ss') })
                : t('video.elapsed', { time: clock(elapsed) })}
            </Typography.Text>
          )}
        </Space>
      </Flex>
      <PlaybackDialog
        open={dialogOpen}
        onCancel={() => {
          setDialogOpen(false);
        }}
        onConfirm={(range) => {
          void startPlayback(range);
        }}
      />
    </Flex>
  );
}
