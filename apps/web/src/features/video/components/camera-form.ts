/** The add and edit dialog's fields of a camera: which platform, then what that platform needs. */
import {
  addDeviceVideoRequest,
  updateDeviceVideoRequest,
  VIDEO_PROVIDERS,
  type DeviceVideoDto,
} from '@sluice/shared/video.schema';
import type { ResourceFormConfig } from '../../../components/resource-table/resource-types';

const ezviz = (values: Record<string, unknown>) => values.Provider === 'ezviz';
const hls = (values: Record<string, unknown>) => values.Provider !== 'ezviz';

export const cameraForm: ResourceFormConfig<DeviceVideoDto> = {
  createSchema: addDeviceVideoRequest,
  updateSchema: updateDeviceVideoRequest,
  createTitle: 'video.add',
  editTitle: 'video.editCamera',
  initialValues: { Provider: 'hls', Channel: 1 },
  fields: [
    { name: 'VideoName', label: 'video.field.name', kind: 'text' },
    {
      name: 'Provider',
      label: 'video.provider.label',
      kind: 'radio',
      options: VIDEO_PROVIDERS.map((value) => ({ value, labelKey: `video.provider.${value}` as const })),
    },
    { name: 'Url', label: 'video.field.url', kind: 'text', visible: hls, placeholder: 'video.field.urlPlaceholder' },
    { name: 'PlaybackUrl', label: 'video.field.playbackUrl', kind: 'text', visible: hls, help: 'video.field.playbackUrlHelp' },
    { name: 'VideoSn', label: 'video.field.serial', kind: 'text', visible: ezviz },
    { name: 'Channel', label: 'video.field.channel', kind: 'number', min: 1, max: 256, visible: ezviz },
    { name: 'Url', label: 'video.field.ezopenUrl', kind: 'text', visible: ezviz, help: 'video.field.ezopenUrlHelp' },
    { name: 'SecurityCode', label: 'video.field.code', kind: 'password', visible: ezviz, autoComplete: 'off' },
    { name: 'Appkey', label: 'video.field.appKey', kind: 'text', visible: ezviz, autoComplete: 'off' },
    { name: 'Secret', label: 'video.field.secret', kind: 'password', visible: ezviz, autoComplete: 'new-password' },
  ],
  adjustFields: (fields, mode) =>
    mode === 'edit'
      ? fields.map((field) =>
          ['SecurityCode', 'Appkey', 'Secret'].includes(field.name) ? { ...field, help: 'video.field.keepSecret' } : field,
        )
      : fields,
};
