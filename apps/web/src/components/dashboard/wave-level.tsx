/**
 * A tank's level as water in a box (spec §2: a canvas wave animation on hover, default height
 * 63 px): the fill stands still, and its surface waves while the pointer is over it or it has the
 * focus. It draws with the theme's brand colour; the text beside it says the value for readers.
 */
import { useEffect, useRef, useState } from 'react';

export const WAVE_DEFAULT_HEIGHT = 63;

export function WaveLevel({
  ratio,
  label,
  height = WAVE_DEFAULT_HEIGHT,
  width = 56,
}: {
  /** 0–1: how full. */
  ratio: number;
  /** What the level says (name, value and range), for screen readers and the tooltip. */
  label: string;
  height?: number;
  width?: number;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [waving, setWaving] = useState(false);
  const fill = Math.min(1, Math.max(0, ratio));

  useEffect(() => {
    const element = canvas.current;
    const context = element?.getContext('2d');
    if (!element || !context) return;
    const color = getComputedStyle(element).getPropertyValue('--sluice-brand').trim() || '#1677ff';
    const border = getComputedStyle(element).getPropertyValue('--ant-color-border').trim() || 'rgba(127,127,127,0.5)';
    let frame = 0;
    let phase = 0;
    const draw = () => {
      context.clearRect(0, 0, width, height);
      const surface = height * (1 - fill);
      const amplitude = waving && fill > 0 && fill < 1 ? 3 : 0;
      context.fillStyle = color;
      context.globalAlpha = 0.75;
      context.beginPath();
      context.moveTo(0, height);
      for (let x = 0; x <= width; x += 2) context.lineTo(x, surface + Math.sin(x / 8 + phase) * amplitude);
      context.lineTo(width, height);
      context.closePath();
      context.fill();
      context.globalAlpha = 1;
      context.strokeStyle = border;
      context.strokeRect(0.5, 0.5, width - 1, height - 1);
      if (waving) {
        phase += 0.15;
        frame = requestAnimationFrame(draw);
      }
    };
    draw();
    return () => {
      cancelAnimationFrame(frame);
    };
  }, [fill, waving, width, height]);

  return (
    <canvas
      ref={canvas}
      width={width}
      height={height}
      role="img"
      aria-label={label}
      title={label}
      tabIndex={0}
      className="sluice-wave-level"
      data-level={fill.toFixed(3)}
      onMouseEnter={() => {
        setWaving(true);
      }}
      onMouseLeave={() => {
        setWaving(false);
      }}
      onFocus={() => {
        setWaving(true);
      }}
      onBlur={() => {
        setWaving(false);
      }}
    />
  );
}
