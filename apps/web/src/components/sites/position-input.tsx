import { useEffect, useRef, useState } from 'react';
import { Button, Input, Modal, Space, Typography } from 'antd';
import { EnvironmentOutlined } from '@ant-design/icons';
import L from 'leaflet';
import { useTranslation } from 'react-i18next';
import { parsePosition } from '@sluice/shared/geo.schema';
import { createBaseMap, labelZoomControls } from '../map/base-map';
import { useMapConfig } from '../../lib/client-config';

/** A map in a dialog: a click places the pin; OK hands back 'lng,lat' (GCJ-02, 6 decimals). */
function PickOnMap({ initial, onPick }: { initial: string | undefined; onPick: (position: string) => void }) {
  const { t } = useTranslation();
  const { config } = useMapConfig();
  const element = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = element.current;
    if (!el || !config) return;
    const start = parsePosition(initial);
    const map = createBaseMap(el, config, start ? { center: [start[1], start[0]], zoom: 14 } : {});
    labelZoomControls(el, {
      zoomIn: t('map.zoomIn'),
      zoomOut: t('map.zoomOut'),
    });
    let pin: L.CircleMarker | undefined;
    const place = (latLng: L.LatLng) => {
      pin?.remove();
      pin = L.circleMarker(latLng, {
        radius: 9,
        color: '#1677ff',
        weight: 3,
        fillOpacity: 0.4,
      }).addTo(map);
    };
    if (start) place(L.latLng(start[1], start[0]));
    map.on('click', (event: L.LeafletMouseEvent) => {
      place(event.latlng);
      onPick(`${event.latlng.lng.toFixed(6)},${event.latlng.lat.toFixed(6)}`);
    });
    return () => {
      map.remove();
    };
    // The map is made once per dialog.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [config]);
  return <div ref={element} className="sluice-map" style={{ height: 360 }} role="region" aria-label={t('sites.form.pickMap')} />;
}

/** 'lng,lat' typed, or picked on the map. */
export function PositionInput({ value, onChange, id }: { value?: string; onChange?: (value: string) => void; id?: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [picked, setPicked] = useState<string>();
  return (
    <>
      <Space.Compact style={{ width: '100%' }}>
        <Input
          id={id}
          value={value}
          placeholder="113.8865,22.609985"
          onChange={(event) => {
            onChange?.(event.target.value);
          }}
        />
        <Button
          icon={<EnvironmentOutlined />}
          onClick={() => {
            setPicked(undefined);
            setOpen(true);
          }}
        >
          {t('sites.form.pickOnMap')}
        </Button>
      </Space.Compact>
      <Modal
        title={t('sites.form.pickOnMap')}
        open={open}
        destroyOnHidden
        width={720}
        okButtonProps={{ disabled: !picked }}
        onOk={() => {
          if (picked) onChange?.(picked);
          setOpen(false);
        }}
        onCancel={() => {
          setOpen(false);
        }}
      >
        <Typography.Paragraph type="secondary">{t('sites.form.pickHint')}</Typography.Paragraph>
        <PickOnMap initial={value} onPick={setPicked} />
        <Typography.Paragraph style={{ marginTop: 8, marginBottom: 0 }} aria-live="polite">
          {picked ? t('sites.form.picked', { position: picked }) : t('sites.form.nothingPicked')}
        </Typography.Paragraph>
      </Modal>
    </>
  );
}
