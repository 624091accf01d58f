import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import type { Profile } from '@/features/profile/api';
import { mockFetch } from '@/testing/fetch-mock';
import { renderRoutes, scout } from '@/testing/render';

import ProfilePage from './profile';

const profile: Profile = {
  id: 1,
  username: 'jdoe',
  name: 'Jane Doe',
  email: 'jane@example.com',
  bio: 'Scouting since 2010.',
  location: 'Leeds, UK',
  favoriteSport: 'soccer',
  phoneNumber: '',
  avatarUrl: null,
  points: 42,
  role: 'scout',
};

function renderProfile(user: typeof scout | null = scout) {
  return renderRoutes([{ path: '/profile', element: <ProfilePage /> }], {
    path: '/profile',
    user,
  });
}

function chooseFile(file: File) {
  fireEvent.change(document.getElementById('avatar-file')!, { target: { files: [file] } });
}

function fileOf(type: string, size: number) {
  const file = new File(['x'], 'picture', { type });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

beforeEach(() => {
  document.cookie = 'csrftoken=t; path=/';
});

describe('ProfilePage', () => {
  it('says it is loading, then shows the picture card and the form', async () => {
    mockFetch({ 'GET /api/profile': { body: profile } });
    renderProfile();
    expect(screen.getByText('Loading profile...')).toBeInTheDocument();
    expect(await screen.findByLabelText('Full Name')).toHaveValue('Jane Doe');
    expect(screen.getByText('@jdoe')).toBeInTheDocument();
    expect(screen.getByText('jane@example.com')).toBeInTheDocument();
    expect(screen.getByText('42 points')).toBeInTheDocument();
    expect(screen.getByLabelText('Bio')).toHaveAttribute('rows', '4');
    expect(screen.getByLabelText('Location')).toHaveAttribute('placeholder', 'City, Country');
    expect(screen.getByLabelText('Favorite Sport')).toHaveValue('soccer');
    const sports = Array.from(
      (screen.getByLabelText('Favorite Sport') as HTMLSelectElement).options,
    )
      .map((option) => option.value)
      .filter(Boolean);
    expect(sports).toEqual([
      'football',
      'basketball',
      'baseball',
      'soccer',
      'hockey',
      'volleyball',
      'tennis',
      'other',
    ]);
    expect(screen.getByRole('button', { name: 'Upload photo' })).toBeInTheDocument();
  });

  it('asks a signed-out visitor to log in, without asking for a profile', async () => {
    const { requests } = mockFetch({});
    renderProfile(null);
    expect(await screen.findByText('Please log in to view your profile')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute(
      'href',
      '/login?returnTo=%2Fprofile',
    );
    expect(requests.filter((request) => request.url.startsWith('/api/profile'))).toEqual([]);
  });

  it('saves the form, says so and refreshes the session user', async () => {
    const { requests } = mockFetch({
      'GET /api/profile': { body: profile },
      'PUT /api/profile': ({ body }) => ({ body: { ...profile, ...(body as object) } }),
    });
    const { queryClient } = renderProfile();
    const name = await screen.findByLabelText('Full Name');
    await userEvent.clear(name);
    await userEvent.type(name, 'Jane Q. Doe');
    await userEvent.selectOptions(screen.getByLabelText('Favorite Sport'), 'tennis');
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByText('Profile updated successfully')).toBeInTheDocument();
    expect(requests.find((request) => request.method === 'PUT')?.body).toEqual({
      name: 'Jane Q. Doe',
      bio: 'Scouting since 2010.',
      location: 'Leeds, UK',
      phoneNumber: '',
      favoriteSport: 'tennis',
    });
    // Nothing shows the session user here: it is marked for a refetch the header would run.
    await waitFor(() =>
      expect(queryClient.getQueryState(['auth', 'me'])?.isInvalidated).toBe(true),
    );
  });

  it("shows the server's message when saving fails", async () => {
    mockFetch({
      'GET /api/profile': { body: profile },
      'PUT /api/profile': {
        status: 400,
        body: { message: 'Name is required', code: 'validation_error' },
      },
    });
    renderProfile();
    await userEvent.clear(await screen.findByLabelText('Full Name'));
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
  });

  it('refuses a file that is not an image before sending anything', async () => {
    const { requests } = mockFetch({ 'GET /api/profile': { body: profile } });
    renderProfile();
    await screen.findByLabelText('Full Name');
    chooseFile(fileOf('application/pdf', 1000));
    expect(
      await screen.findByText('Please choose an image file (PNG, JPEG, GIF or WebP)'),
    ).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
    expect(requests.filter((request) => request.method !== 'GET')).toHaveLength(0);
  });

  it('refuses an image over 5 MB before sending anything', async () => {
    const { requests } = mockFetch({ 'GET /api/profile': { body: profile } });
    renderProfile();
    await screen.findByLabelText('Full Name');
    chooseFile(fileOf('image/png', 5_242_881));
    expect(await screen.findByText('The image must be at most 5 MB')).toBeInTheDocument();
    expect(requests.filter((request) => request.method !== 'GET')).toHaveLength(0);
  });

  it('says so when no upload address can be had', async () => {
    const xhr = vi.fn();
    vi.stubGlobal('XMLHttpRequest', xhr);
    mockFetch({
      'GET /api/profile': { body: profile },
      'POST /api/objects/upload': {
        status: 400,
        body: { message: 'Only PNG, JPEG, GIF or WebP images can be uploaded', code: 'x' },
      },
    });
    renderProfile();
    await screen.findByLabelText('Full Name');
    chooseFile(fileOf('image/png', 1000));
    expect(await screen.findByText('Failed to get upload URL')).toBeInTheDocument();
    expect(xhr).not.toHaveBeenCalled();
  });
});
