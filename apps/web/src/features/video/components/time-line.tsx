/**
 * The playback time line (§2, §9: a canvas 48 px high): the queried range with its recorded
 * segments and where playback is; choosing a point (click, or the arrow keys) restarts playback
 * from there. Redrawn on resize, at most every 500 ms (§9).
 */
import { useEffect, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { theme } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { TIMELINE_HEIGHT, type RecordingSegmentDto } from '@sluice/shared/video.schema';

const RESIZE_THROTTLE_MS = 500;
const KEY_STEP_MS = 5 * 60_000;

/** Hours between ticks for a range drawn `width` px wide. */
function tickHours(spanMs: number, width: number): number {
  const hours = spanMs / 3_600_000;
  return [1, 2, 3, 6, 12, 24].find((step) => (width / hours) * step >= 56) ?? 24;
}

export function TimeLine({
  start,
  end,
  segments,
  position,
  onPick,
}: {
  start: number;
  end: number;
  segments: RecordingSegmentDto[];
  /** Where playback is (epoch ms), when playing. */
  position: number | undefined;
  onPick: (time: number) => void;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [width, setWidth] = useState(0);
  const span = Math.max(1, end - start);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const measure = () => {
      setWidth(canvas.clientWidth);
    };
    measure();
    const observer = new ResizeObserver(() => {
      timer ??= setTimeout(() => {
        timer = undefined;
        measure();
      }, RESIZE_THROTTLE_MS);
    });
    observer.observe(canvas);
    return () => {
      observer.disconnect();
      clearTimeout(timer);
    };
  }, []);

  useEffect(() => {
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx || width === 0) return;
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(TIMELINE_HEIGHT * ratio);
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    const x = (time: number) => ((time - start) / span) * width;
    ctx.fillStyle = token.colorFillSecondary;
    ctx.fillRect(0, 0, width, TIMELINE_HEIGHT);
    ctx.fillStyle = token.colorPrimary;
    for (const s of segments) ctx.fillRect(x(s.StartTime), 6, Math.max(2, x(s.EndTime) - x(s.StartTime)), 18);
    ctx.strokeStyle = token.colorTextTertiary;
    ctx.fillStyle = token.colorTextSecondary;
    ctx.font = `11px ${token.fontFamily}`;
    ctx.textBaseline = 'bottom';
    const step = tickHours(span, width) * 3_600_000;
    const first = dayjs(start).startOf('hour').valueOf();
    for (let tick = first; tick <= end; tick += step) {
      if (tick < start) continue;
      const px = Math.round(x(tick)) + 0.5;
      ctx.beginPath();
      ctx.moveTo(px, 24);
      ctx.lineTo(px, 30);
      ctx.stroke();
      const label = dayjs(tick).format(span > 24 * 3_600_000 ? 'MM-DD HH:mm' : 'HH:mm');
      ctx.fillText(label, Math.min(px + 2, width - ctx.measureText(label).width - 2), TIMELINE_HEIGHT - 2);
    }
    if (position !== undefined && position >= start && position <= end) {
      ctx.fillStyle = token.colorError;
      ctx.fillRect(Math.round(x(position)) - 1, 0, 2, TIMELINE_HEIGHT);
    }
  }, [width, start, end, span, segments, position, token]);

  const pickAt = (event: MouseEvent<HTMLCanvasElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    const share = Math.min(1, Math.max(0, (event.clientX - rect.left) / rect.width));
    onPick(Math.round(start + share * span));
  };

  const onKey = (event: KeyboardEvent<HTMLCanvasElement>) => {
    const from = position ?? start;
    if (event.key === 'ArrowRight') onPick(Math.min(end, from + KEY_STEP_MS));
    else if (event.key === 'ArrowLeft') onPick(Math.max(start, from - KEY_STEP_MS));
    else return;
    event.preventDefault();
  };

  const format = (time: number) => dayjs(time).format('YYYY-MM-DD HH:mm:ss');
  return (
    <canvas
      ref={canvasRef}
      className="sluice-video-timeline"
      style={{ height: TIMELINE_HEIGHT }}
      role="slider"
      tabIndex={0}
      aria-label={t('video.timeline.label', { start: format(start), end: format(end) })}
      aria-valuemin={start}
      aria-valuemax={end}
      aria-valuenow={position ?? start}
      aria-valuetext={`${format(position ?? start)}, ${t('video.timeline.segments', { count: segments.length })}`}
      data-testid="video-timeline"
      onClick={pickAt}
      onKeyDown={onKey}
    >
      {t('video.timeline.noCanvas')}
    </canvas>
  );
}
