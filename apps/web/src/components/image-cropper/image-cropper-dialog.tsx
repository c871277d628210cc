/**
 * The image-cropper dialog of spec §2: pick a server image or a local one, crop, rotate, reset,
 * choose the shape (for project images cover 5:1 or not 2.5:1), upload. Local files are checked
 * first (spec §5): only the allowed types, no bigger than the limit; confirming without a picture
 * asks for one. The upload's failure shows the server's error, success its message.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import Cropper, { type Area } from 'react-easy-crop';
import { Alert, App, Button, Flex, Modal, Radio, Segmented, Slider, Space, Typography } from 'antd';
import { PictureOutlined, ReloadOutlined, RotateLeftOutlined, RotateRightOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/form-errors';
import { cropImage } from './crop-image';
import { acceptAttribute, checkImage, imageKindOf, type ImageKind } from './image-rules';
import './image-cropper.css';

export interface CropShape {
  key: string;
  label: string;
  /** width / height */
  aspect: number;
}

export interface ServerImage {
  id: string | number;
  url: string;
  label: string;
}

export interface ImageCropperDialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  shapes: CropShape[];
  defaultShape?: string;
  serverImages?: ServerImage[];
  kinds?: ImageKind[];
  maxBytes: number;
  /** Uploads the cropped file; answers the server's message. */
  onUpload: (file: Blob, fileName: string, shape: string) => Promise<string>;
}

interface Picked {
  src: string;
  name: string;
  type: 'image/png' | 'image/jpeg';
  /** an object URL to free when done */
  local: boolean;
}

const DEFAULT_KINDS: ImageKind[] = ['png', 'jpeg', 'bmp'];

function CropperBody({
  onClose,
  shapes,
  defaultShape,
  serverImages,
  kinds = DEFAULT_KINDS,
  maxBytes,
  onUpload,
}: Omit<ImageCropperDialogProps, 'open' | 'title'>) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const input = useRef<HTMLInputElement>(null);
  const [source, setSource] = useState<'local' | 'server'>('local');
  const [picked, setPicked] = useState<Picked>();
  const [problem, setProblem] = useState<string>();
  const [shape, setShape] = useState(defaultShape ?? shapes[0]?.key ?? '');
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(1);
  const [rotation, setRotation] = useState(0);
  const [area, setArea] = useState<Area>();
  const [busy, setBusy] = useState(false);

  const reset = useCallback(() => {
    setCrop({ x: 0, y: 0 });
    setZoom(1);
    setRotation(0);
  }, []);

  const choose = useCallback(
    (next: Picked | undefined) => {
      setPicked(next);
      reset();
    },
    [reset],
  );

  // A local image's object URL is freed when another is chosen or the dialog closes.
  useEffect(
    () => () => {
      if (picked?.local) URL.revokeObjectURL(picked.src);
    },
    [picked],
  );

  const onFile = (file: File | undefined) => {
    if (!file) return;
    const issue = checkImage(file, kinds, maxBytes);
    if (issue) {
      setProblem(
        issue.kind === 'wrongType'
          ? t('cropper.wrongType', { types: issue.types })
          : t('cropper.tooLarge', { limit: issue.limit }),
      );
      return;
    }
    setProblem(undefined);
    const kind = imageKindOf(file, kinds);
    choose({
      src: URL.createObjectURL(file),
      name: file.name,
      type: kind === 'jpeg' ? 'image/jpeg' : 'image/png',
      local: true,
    });
  };

  const confirm = async () => {
    if (!picked || !area) {
      setProblem(t('cropper.noPicture'));
      return;
    }
    setProblem(undefined);
    setBusy(true);
    try {
      const blob = await cropImage(picked.src, area, rotation, picked.type);
      const base = picked.name.replace(/\.[^.]+$/, '') || 'image';
      const text = await onUpload(blob, `${base}.${picked.type === 'image/jpeg' ? 'jpg' : 'png'}`, shape);
      void message.success(text || t('cropper.uploaded'));
      onClose();
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  const aspect = shapes.find((s) => s.key === shape)?.aspect ?? 1;

  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }}>
      {serverImages && serverImages.length > 0 && (
        <Segmented<'local' | 'server'>
          aria-label={t('cropper.source')}
          value={source}
          onChange={(value) => {
            setSource(value);
          }}
          options={[
            { value: 'local', label: t('cropper.local') },
            { value: 'server', label: t('cropper.server') },
          ]}
        />
      )}
      {source === 'local' || !serverImages?.length ? (
        <Flex gap={8} align="center" wrap>
          <Button
            icon={<PictureOutlined />}
            onClick={() => {
              input.current?.click();
            }}
          >
            {t('cropper.chooseLocal')}
          </Button>
          <input
            ref={input}
            type="file"
            className="visually-hidden"
            accept={acceptAttribute(kinds)}
            aria-label={t('cropper.chooseLocal')}
            tabIndex={-1}
            onChange={(event) => {
              onFile(event.target.files?.[0]);
              event.target.value = '';
            }}
          />
          <Typography.Text type="secondary">
            {t('cropper.rules', {
              types: kinds.join(', '),
              limit: `${String(Math.round(maxBytes / 1024 / 1024))} MB`,
            })}
          </Typography.Text>
        </Flex>
      ) : (
        <div className="sluice-cropper-thumbs" role="group" aria-label={t('cropper.server')}>
          {serverImages.map((image) => (
            <button
              key={image.id}
              type="button"
              className="sluice-cropper-thumb"
              aria-pressed={picked?.src === image.url}
              aria-label={image.label}
              onClick={() => {
                setProblem(undefined);
                choose({
                  src: image.url,
                  name: image.label,
                  type: /\.jpe?g$/i.test(image.url) ? 'image/jpeg' : 'image/png',
                  local: false,
                });
              }}
            >
              <img src={image.url} alt="" />
            </button>
          ))}
        </div>
      )}
      {problem && <Alert type="error" showIcon title={problem} role="alert" />}
      <div className="sluice-cropper-stage" role="group" aria-label={t('cropper.stage')}>
        {picked ? (
          <Cropper
            image={picked.src}
            crop={crop}
            zoom={zoom}
            rotation={rotation}
            aspect={aspect}
            onCropChange={setCrop}
            onZoomChange={setZoom}
            onRotationChange={setRotation}
            onCropComplete={(_area, pixels) => {
              setArea(pixels);
            }}
          />
        ) : (
          <Typography.Text type="secondary">{t('cropper.empty')}</Typography.Text>
        )}
      </div>
      {shapes.length > 1 && (
        <Radio.Group
          aria-label={t('cropper.shape')}
          value={shape}
          onChange={(event) => {
            setShape(String(event.target.value));
          }}
          options={shapes.map((s) => ({ value: s.key, label: s.label }))}
        />
      )}
      <Flex gap={16} align="center" wrap>
        <Flex gap={8} align="center" style={{ minWidth: 200, flex: 1 }}>
          <Typography.Text id="cropper-zoom">{t('cropper.zoom')}</Typography.Text>
          <Slider
            style={{ flex: 1 }}
            min={1}
            max={4}
            step={0.05}
            value={zoom}
            onChange={setZoom}
            disabled={!picked}
            aria-labelledby="cropper-zoom"
          />
        </Flex>
        <Flex gap={8} align="center" style={{ minWidth: 200, flex: 1 }}>
          <Typography.Text id="cropper-rotation">{t('cropper.rotation')}</Typography.Text>
          <Slider
            style={{ flex: 1 }}
            min={-180}
            max={180}
            step={1}
            value={rotation}
            onChange={setRotation}
            disabled={!picked}
            aria-labelledby="cropper-rotation"
          />
        </Flex>
        <Space>
          <Button
            icon={<RotateLeftOutlined />}
            aria-label={t('cropper.rotateLeft')}
            disabled={!picked}
            onClick={() => {
              setRotation((r) => (r - 90 < -180 ? r + 270 : r - 90));
            }}
          />
          <Button
            icon={<RotateRightOutlined />}
            aria-label={t('cropper.rotateRight')}
            disabled={!picked}
            onClick={() => {
              setRotation((r) => (r + 90 > 180 ? r - 270 : r + 90));
            }}
          />
          <Button icon={<ReloadOutlined />} disabled={!picked} onClick={reset}>
            {t('cropper.reset')}
          </Button>
        </Space>
      </Flex>
      <Flex justify="end" gap={8} style={{ marginTop: 8 }}>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button type="primary" loading={busy} onClick={() => void confirm()}>
          {t('cropper.upload')}
        </Button>
      </Flex>
    </Space>
  );
}

export function ImageCropperDialog({ open, title, onClose, ...rest }: ImageCropperDialogProps) {
  return (
    <Modal title={title} open={open} onCancel={onClose} width={760} destroyOnHidden footer={null}>
      <CropperBody onClose={onClose} {...rest} />
    </Modal>
  );
}
