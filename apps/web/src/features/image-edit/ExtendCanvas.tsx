import { Alert, Spin } from 'antd';
import type Konva from 'konva';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Image as KonvaImage, Layer, Rect, Stage } from 'react-konva';
import type { Size } from '../generation/imageFile';
import { type Frame, moved } from './frame';
import styles from './imageEdit.module.css';
import { pixelateFilter } from './pixelate';

/** The canvas is drawn in a box of this many CSS pixels, whatever the frame's real size. */
const BOX = 420;
/** Blocks of the preview of the area to be generated, in canvas pixels. */
const PREVIEW_PIXEL_SIZE = 12;

type Loading = { state: 'loading' } | { state: 'ready'; element: HTMLImageElement } | { state: 'failed' };

/**
 * The picture inside the frame it will be extended to: the frame outlined, a pixelated stretch of the picture
 * hinting at the area the service will fill, and the picture itself, which can be dragged to place it.
 * A picture that cannot be loaded shows an error state (spec §8).
 */
export function ExtendCanvas({
  url,
  image,
  frame,
  onChange,
}: {
  url: string;
  image: Size;
  frame: Frame;
  onChange: (frame: Frame) => void;
}) {
  const { t } = useTranslation('image-edit');
  const [loading, setLoading] = useState<Loading>({ state: 'loading' });
  const preview = useRef<Konva.Image>(null);
  const scale = Math.min(BOX / frame.width, BOX / frame.height);

  useEffect(() => {
    const node = preview.current;
    if (loading.state !== 'ready' || !node) return;
    try {
      node.cache();
    } catch (error) {
      // A picture from another origin without CORS cannot be read back (a tainted canvas): the hint is left out.
      if (!(error instanceof DOMException && error.name === 'SecurityError')) throw error;
    }
  }, [loading]);

  return (
    <div className={styles.canvas} style={{ minHeight: BOX }}>
      {/* The browser loads the picture here; the canvas draws it once loaded. */}
      <img
        key={url}
        src={url}
        alt=""
        hidden
        data-testid="extend-source"
        onLoad={(event) => setLoading({ state: 'ready', element: event.currentTarget })}
        onError={() => setLoading({ state: 'failed' })}
      />
      {loading.state === 'loading' && <Spin />}
      {loading.state === 'failed' && <Alert type="error" showIcon title={t('extend.loadFailed')} />}
      {loading.state === 'ready' && (
        <Stage width={frame.width * scale} height={frame.height * scale} scaleX={scale} scaleY={scale} aria-label={t('extend.canvas')}>
          <Layer>
            <Rect width={frame.width} height={frame.height} fill="rgba(255,255,255,0.04)" />
            <KonvaImage
              ref={preview}
              image={loading.element}
              width={frame.width}
              height={frame.height}
              opacity={0.35}
              filters={[pixelateFilter(PREVIEW_PIXEL_SIZE / scale)]}
              listening={false}
            />
            <KonvaImage
              image={loading.element}
              x={frame.left}
              y={frame.top}
              width={image.width}
              height={image.height}
              draggable
              onDragMove={(event) => {
                const next = moved(image, frame, event.target.x(), event.target.y());
                event.target.position({ x: next.left, y: next.top });
              }}
              onDragEnd={(event) => onChange(moved(image, frame, event.target.x(), event.target.y()))}
            />
            <Rect
              width={frame.width}
              height={frame.height}
              stroke="#1adb74"
              strokeWidth={2 / scale}
              dash={[8 / scale, 6 / scale]}
              listening={false}
            />
          </Layer>
        </Stage>
      )}
    </div>
  );
}
