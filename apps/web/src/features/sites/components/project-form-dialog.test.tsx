import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { App, Button, ConfigProvider } from 'antd';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setSessionCookies } from '../../../lib/cookies';
import { changeLanguage } from '../../../lib/i18n';
import { fakeApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render';
import type { ProjectDto } from '../api/projects-api';
import { ProjectFormDialog } from './project-form-dialog';

const project: ProjectDto = {
  Id: 4,
  Name: 'Qingshan Town',
  ProjectName: 'Qingshan Town',
  ProjectType: 0,
  ProjectKind: 'project',
  ParentId: 0,
  ParentName: null,
  ClientId: null,
  RegionId: null,
  AreaId: null,
  Address: 'Anji',
  Position: '119.6132,30.6147',
  SitesNum: 0,
  ProjectNum: 0,
  DeviceNum: 0,
  OnlineNum: 0,
  OfflineNum: 0,
  Online: false,
  State: 0,
  WarningNum: 0,
  LastSeen: null,
  Image: null,
  CreatedAt: 0,
};

beforeEach(async () => {
  setSessionCookies({ account: 'admin' });
  await changeLanguage('en-US');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function Editing() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        onClick={() => {
          setOpen(true);
        }}
      >
        Open
      </Button>
      <ProjectFormDialog
        kind="project"
        open={open}
        editing={project}
        onClose={() => {
          setOpen(false);
        }}
      />
    </>
  );
}

const dialogNamed = (name: string) => screen.findByRole('dialog', { name });

describe('the project dialog', () => {
  it("starts from the project each time it opens, saves it, and puts the server's field error on its field", async () => {
    let answer: 'refuse' | 'accept' = 'refuse';
    const api = fakeApi({
      'GET /api/7/project': () => [],
      'GET /api/7/Region': () => [],
      'PUT /api/7/project': () =>
        answer === 'refuse'
          ? { status: 400, message: 'Invalid request', data: { errors: [{ field: 'name', message: 'The name is taken' }] } }
          : { data: project, message: 'Project saved' },
    });
    renderRoutes(
      [
        {
          path: '/',
          element: (
            <ConfigProvider theme={{ token: { motion: false } }}>
              <App>
                <Editing />
              </App>
            </ConfigProvider>
          ),
        },
      ],
      '/',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    let dialog = await dialogNamed('Edit project');
    const name = within(dialog).getByLabelText<HTMLInputElement>('Name');
    expect(name.value).toBe('Qingshan Town');
    expect(within(dialog).getByLabelText<HTMLInputElement>('Address').value).toBe('Anji');

    await userEvent.clear(name);
    await userEvent.type(name, 'Typed, then cancelled');
    await userEvent.click(within(dialog).getByRole('button', { name: /Cancel/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    dialog = await dialogNamed('Edit project');
    await waitFor(() => {
      expect(within(dialog).getByLabelText<HTMLInputElement>('Name').value).toBe('Qingshan Town');
    });

    await userEvent.type(within(dialog).getByLabelText('Name'), ' B');
    await userEvent.click(within(dialog).getByRole('button', { name: /Save/ }));
    expect(await within(dialog).findByText('The name is taken')).toBeTruthy();
    expect(api.callsTo('PUT', '/api/7/project')[0]?.body).toMatchObject({ Id: 4, Name: 'Qingshan Town B', Address: 'Anji' });

    answer = 'accept';
    await userEvent.click(within(dialog).getByRole('button', { name: /Save/ }));
    expect(await screen.findByText('Project saved')).toBeTruthy();
    await waitFor(() => {
      expect(screen.queryByRole('dialog', { name: 'Edit project' })).toBeNull();
    });
  });
});
