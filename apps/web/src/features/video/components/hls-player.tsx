/**
 * A video element playing an HLS address: hls.js (loaded only when a camera plays) where the
 * browser has Media Source Extensions, the browser's own HLS otherwise (Safari). A fatal error
 * is reported once; the caller offers a refresh.
 */
import { forwardRef, useEffect, useImperativeHandle, useRef } from 'react';
import type HlsType from 'hls.js';

export interface HlsPlayerHandle {
  /** The video element (its current time, full screen). */
  video: HTMLVideoElement | null;
}

export const HlsPlayer = forwardRef<
  HlsPlayerHandle,
  { url: string | undefined; label: string; onError: () => void; onPlaying: () => void }
>(function HlsPlayer({ url, label, onError, onPlaying }, ref) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const callbacks = useRef({ onError, onPlaying });
  callbacks.current = { onError, onPlaying };
  useImperativeHandle(ref, () => ({
    get video() {
      return videoRef.current;
    },
  }));

  useEffect(() => {
    const video = videoRef.current;
    if (!video || !url) return;
    let hls: HlsType | undefined;
    let cancelled = false;
    let failed = false;
    const fail = () => {
      if (failed || cancelled) return;
      failed = true;
      callbacks.current.onError();
    };
    const playing = () => {
      callbacks.current.onPlaying();
    };
    video.addEventListener('playing', playing);
    video.addEventListener('error', fail);
    const start = () => {
      video.play().catch(() => {
        // Autoplay refused: the user presses play on the element's own controls.
      });
    };
    void import('hls.js').then(
      ({ default: Hls }) => {
        if (cancelled) return;
        if (Hls.isSupported()) {
          hls = new Hls({ lowLatencyMode: true, backBufferLength: 30 });
          hls.on(Hls.Events.ERROR, (_event, data) => {
            if (data.fatal) fail();
          });
          hls.on(Hls.Events.MANIFEST_PARSED, start);
          hls.loadSource(url);
          hls.attachMedia(video);
        } else if (video.canPlayType('application/vnd.apple.mpegurl')) {
          video.src = url;
          start();
        } else fail();
      },
      () => {
        fail();
      },
    );
    return () => {
      cancelled = true;
      video.removeEventListener('playing', playing);
      video.removeEventListener('error', fail);
      hls?.destroy();
      video.removeAttribute('src');
      video.load();
    };
  }, [url]);

  return (
    <video
      ref={videoRef}
      className="sluice-video-element"
      aria-label={label}
      muted
      playsInline
      controls={false}
      data-testid="camera-video"
    />
  );
});
