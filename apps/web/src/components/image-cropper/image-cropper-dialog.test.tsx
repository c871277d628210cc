import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import { I18nextProvider } from 'react-i18next';
import { ThemedConfig } from '../../app/providers';
import { i18n } from '../../lib/i18n';
import { ImageCropperDialog } from './image-cropper-dialog';

function renderDialog(onUpload = vi.fn(() => Promise.resolve('saved'))) {
  render(
    <I18nextProvider i18n={i18n}>
      <ThemedConfig>
        <App>
          <ImageCropperDialog
            open
            title="Cover"
            onClose={() => undefined}
            shapes={[
              { key: 'cover', label: 'Cover (5:1)', aspect: 5 },
              { key: 'normal', label: 'Not cover (2.5:1)', aspect: 2.5 },
            ]}
            maxBytes={5 * 1024 * 1024}
            onUpload={onUpload}
          />
        </App>
      </ThemedConfig>
    </I18nextProvider>,
  );
  return onUpload;
}

describe('the image-cropper dialog', () => {
  it('refuses a file that is not png, jpeg or bmp', async () => {
    await i18n.changeLanguage('en-US');
    renderDialog();
    const gif = new File(['GIF89a'], 'anim.gif', { type: 'image/gif' });
    await userEvent.upload(screen.getByLabelText('Choose an image'), gif, { applyAccept: false });
    expect((await screen.findByRole('alert')).textContent).toContain('Wrong image type: only png, jpeg, bmp are supported');
  });

  it('refuses an image over 5 MB', async () => {
    await i18n.changeLanguage('en-US');
    renderDialog();
    const big = new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'huge.png', { type: 'image/png' });
    await userEvent.upload(screen.getByLabelText('Choose an image'), big);
    expect((await screen.findByRole('alert')).textContent).toContain('The image cannot exceed 5 MB');
  });

  it('asks for a picture when confirmed without one, and uploads nothing', async () => {
    await i18n.changeLanguage('en-US');
    const upload = renderDialog();
    await userEvent.click(screen.getByRole('button', { name: 'Upload' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Please select a picture');
    expect(upload).not.toHaveBeenCalled();
  });
});
