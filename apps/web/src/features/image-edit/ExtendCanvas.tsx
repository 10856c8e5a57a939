import { Alert, Spin } from 'antd';
import type Konva from 'konva';
import { type RefObject, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Image as KonvaImage, Layer, Rect, Stage } from 'react-konva';
import type { Size } from '../generation';
import { EDGES, type Edge, type Frame, moved, resized } from './frame';
import styles from './imageEdit.module.css';
import { pixelateFilter } from './pixelate';

/** The canvas is drawn in a box of at most this many CSS pixels, whatever the frame's real size. */
const BOX = 420;
/** Blocks of the preview of the area to be generated, in canvas pixels. */
const PREVIEW_PIXEL_SIZE = 12;
/** The grips on a free frame's edges, in canvas pixels: thick enough to catch, long enough to see. */
const GRIP = { thick: 10, long: 56 };

type Loading = { state: 'loading' } | { state: 'ready'; element: HTMLImageElement } | { state: 'failed' };

/**
 * The picture inside the frame it will be extended to: the frame outlined, a pixelated stretch of the picture
 * hinting at the area the service will fill, and the picture itself, which can be dragged to place it. A free
 * frame (`resizable`) also has a grip on each edge to drag it to another size. A picture that cannot be loaded
 * shows an error state (spec "Error catalogue").
 */
export function ExtendCanvas({
  url,
  image,
  frame,
  resizable = false,
  onChange,
}: {
  url: string;
  image: Size;
  frame: Frame;
  resizable?: boolean;
  onChange: (frame: Frame) => void;
}) {
  const { t } = useTranslation('image-edit');
  const [loading, setLoading] = useState<Loading>({ state: 'loading' });
  const preview = useRef<Konva.Image>(null);
  const box = useRef<HTMLDivElement>(null);
  const scale = Math.min(useAvailableWidth(box) / frame.width, BOX / frame.height);

  // Konva filters a cached copy of the node, made at the node's size then: the preview is cached again whenever
  // the frame or the scale changes, or a switch to 16:9 or a free size would keep drawing the old, smaller copy
  // (a grey ghost of the previous frame) instead of a preview filling the new one.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the frame's size and the scale are what the cache must follow
  useEffect(() => {
    const node = preview.current;
    if (loading.state !== 'ready' || !node) return;
    try {
      node.cache();
    } catch (error) {
      // A picture from another origin without CORS cannot be read back (a tainted canvas): the hint is left out.
      if (!(error instanceof DOMException && error.name === 'SecurityError')) throw error;
    }
  }, [loading, frame.width, frame.height, scale]);

  return (
    // The box holds the canvas's place while the picture loads, then fits the frame (a wide frame on a phone is short).
    <div ref={box} className={styles.canvas} style={{ minHeight: loading.state === 'ready' ? undefined : BOX }}>
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
        <Stage
          width={frame.width * scale}
          height={frame.height * scale}
          scaleX={scale}
          scaleY={scale}
          aria-label={t(resizable ? 'extend.canvasResizable' : 'extend.canvas')}
        >
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
            {resizable &&
              EDGES.map((edge) => (
                <EdgeGrip
                  key={edge}
                  edge={edge}
                  frame={frame}
                  scale={scale}
                  onResize={(outwards) => onChange(resized(image, frame, edge, outwards))}
                />
              ))}
          </Layer>
        </Stage>
      )}
    </div>
  );
}

/**
 * The width the canvas may take inside its box, at most BOX: in a narrow column a wide frame is drawn smaller
 * rather than cut off at the right (where its edge's grip is). Unmeasured (no layout), BOX.
 */
function useAvailableWidth(box: RefObject<HTMLDivElement | null>): number {
  const [width, setWidth] = useState(BOX);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => {
      const style = getComputedStyle(element);
      const inner = element.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
      setWidth(inner > 0 ? Math.min(BOX, inner) : BOX);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [box]);
  return width;
}

/**
 * A grip on one edge of the frame, dragged along its axis only. The frame changes when the drag ends (the stage
 * rescales to every new size, which would move the grip under the pointer mid-drag); the grip then goes back
 * to the edge, wherever that now is.
 */
function EdgeGrip({ edge, frame, scale, onResize }: { edge: Edge; frame: Frame; scale: number; onResize: (outwards: number) => void }) {
  const across = edge === 'left' || edge === 'right';
  const thick = GRIP.thick / scale;
  const long = GRIP.long / scale;
  const x = edge === 'left' ? 0 : edge === 'right' ? frame.width - thick : (frame.width - long) / 2;
  const y = edge === 'top' ? 0 : edge === 'bottom' ? frame.height - thick : (frame.height - long) / 2;
  const cursor = (event: Konva.KonvaEventObject<MouseEvent>, value: string) => {
    const container = event.target.getStage()?.container();
    if (container) container.style.cursor = value;
  };
  return (
    <Rect
      x={x}
      y={y}
      width={across ? thick : long}
      height={across ? long : thick}
      cornerRadius={thick / 2}
      fill="#1adb74"
      draggable
      // Absolute positions are in screen pixels: the stage's scale applies to the grip's own x and y.
      dragBoundFunc={(pos) => (across ? { x: pos.x, y: y * scale } : { x: x * scale, y: pos.y })}
      onMouseEnter={(event) => cursor(event, across ? 'ew-resize' : 'ns-resize')}
      onMouseLeave={(event) => cursor(event, '')}
      onDragEnd={(event) => {
        const dragged = across ? event.target.x() - x : event.target.y() - y;
        event.target.position({ x, y });
        onResize(edge === 'left' || edge === 'top' ? -dragged : dragged);
      }}
    />
  );
}
