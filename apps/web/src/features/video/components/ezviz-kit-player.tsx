/**
 * An ezopen:// address in EZVIZ's web player kit (loaded on first use, by default from the
 * console's own server). The kit not loading is reported apart from a playing error, so that the
 * caller can fall back to HLS; a playing error carries the kit's own words when it gave any.
 */
import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { kitErrorText, kitFailureMessage, kitPlayerSettings, loadEzvizKit, type KitPlayer } from './ezviz-kit';

export function EzvizKitPlayer({
  kitUrl,
  staticPath,
  apiUrl,
  url,
  accessToken,
  label,
  onPlaying,
  onError,
  onUnavailable,
}: {
  kitUrl: string;
  staticPath: string | null;
  apiUrl: string;
  url: string;
  accessToken: string;
  label: string;
  onPlaying: () => void;
  onError: (reason?: string) => void;
  /** The kit could not be loaded. */
  onUnavailable: () => void;
}) {
  // The kit finds its box by id; React's ids hold colons, which the kit's selectors do not take.
  const id = `ezviz-kit-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const { i18n } = useTranslation();
  const language = i18n.language;
  const box = useRef<HTMLDivElement>(null);
  const callbacks = useRef({ onPlaying, onError, onUnavailable });
  useEffect(() => {
    callbacks.current = { onPlaying, onError, onUnavailable };
  });

  useEffect(() => {
    let cancelled = false;
    let player: KitPlayer | undefined;
    loadEzvizKit(kitUrl).then(
      (kit) => {
        const element = box.current;
        if (cancelled || !element) return;
        const settings = kitPlayerSettings({
          id,
          url,
          accessToken,
          apiUrl,
          staticPath,
          language,
          width: element.clientWidth,
          height: element.clientHeight,
        });
        try {
          player = new kit.EZUIKitPlayer({
            ...settings,
            handleSuccess: () => {
              if (!cancelled) callbacks.current.onPlaying();
            },
            handleError: (error) => {
              if (!cancelled) callbacks.current.onError(kitErrorText(error));
            },
          });
          player.eventEmitter?.on('message', (text, type) => {
            const failure = kitFailureMessage(text, type);
            if (!cancelled && failure !== undefined) callbacks.current.onError(failure);
          });
        } catch (error) {
          callbacks.current.onError(error instanceof Error ? error.message : undefined);
        }
      },
      () => {
        if (!cancelled) callbacks.current.onUnavailable();
      },
    );
    return () => {
      cancelled = true;
      // The kit's teardown answers a promise; its failing leaves nothing of ours to clean.
      const ignore = () => undefined;
      try {
        Promise.resolve(player?.destroy ? player.destroy() : player?.stop?.()).catch(ignore);
      } catch {
        ignore();
      }
    };
  }, [kitUrl, staticPath, apiUrl, url, accessToken, language, id]);

  return <div ref={box} id={id} className="sluice-video-element" role="region" aria-label={label} data-testid="ezviz-kit" />;
}
