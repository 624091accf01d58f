import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';

import { useSportStore } from '@/stores/sport';
import { mockFetch, type MockResponse } from '@/testing/fetch-mock';
import { makeNomination } from '@/testing/nomination-factory';
import { LocationProbe, renderRoutes, scout } from '@/testing/render';

import type { Player } from '../api/types';

import { EditPlayerDialog } from './edit-player-dialog';
import { NominatePlayerDialog } from './nominate-player-dialog';

beforeEach(() => {
  document.cookie = 'csrftoken=t; path=/';
});

function renderNominate(response: MockResponse = { status: 201, body: makeNomination(1) }) {
  const { requests } = mockFetch({ 'POST /api/nominations': response });
  renderRoutes(
    [
      {
        path: '*',
        element: (
          <>
            <NominatePlayerDialog trigger={<button type="button">Nominate Player</button>} />
            <LocationProbe />
          </>
        ),
      },
    ],
    { user: scout },
  );
  return { requests, user: userEvent.setup() };
}

async function openNominate(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Nominate Player' }));
  return screen.findByRole('dialog', { name: 'Athlete Nomination' });
}

async function fillValid(user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement) {
  const form = within(dialog);
  await user.type(form.getByLabelText('Player Name'), 'Jordan Rivers');
  await user.type(form.getByLabelText('Age'), '16');
  await user.type(form.getByLabelText('Position'), 'Point Guard');
  await user.type(form.getByLabelText('Nationality'), 'Canadian');
  await user.type(form.getByLabelText('Current Club/School'), 'Toronto Prep');
  await user.type(form.getByLabelText('Skills & Strengths'), 'Court vision.');
}

const submit = (user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement, name: string) =>
  user.click(within(dialog).getByRole('button', { name }));

describe('the Athlete Nomination form', () => {
  it('shows every required-field message and sends nothing', async () => {
    const { requests, user } = renderNominate();
    const dialog = await openNominate(user);
    await submit(user, dialog, 'Submit Nomination');
    const form = within(dialog);
    for (const message of [
      'Name must be at least 2 characters',
      'Position is required',
      'Nationality is required',
      'Club is required',
      'Skills are required',
      "Enter the player's age or graduation year",
    ]) {
      expect(form.getByText(message)).toBeInTheDocument();
    }
    expect(form.getByLabelText('Player Name')).toHaveAttribute('aria-invalid', 'true');
    expect(form.getByLabelText('Age')).toHaveAttribute('aria-invalid', 'true');
    expect(requests).toHaveLength(0);
  });

  it('asks for the age or the graduation year when both are blank, and takes either', async () => {
    const { requests, user } = renderNominate();
    const dialog = await openNominate(user);
    const form = within(dialog);
    await fillValid(user, dialog);
    await user.clear(form.getByLabelText('Age'));
    await submit(user, dialog, 'Submit Nomination');
    expect(form.getByText("Enter the player's age or graduation year")).toBeInTheDocument();
    expect(requests).toHaveLength(0);
    await user.type(form.getByLabelText('Graduation Year (optional)'), '2027');
    await submit(user, dialog, 'Submit Nomination');
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0].body).toMatchObject({ graduationYear: 2027 });
  });

  it('holds one-character texts to the same minimums', async () => {
    const { user } = renderNominate();
    const dialog = await openNominate(user);
    const form = within(dialog);
    for (const label of ['Player Name', 'Position', 'Nationality', 'Current Club/School']) {
      await user.type(form.getByLabelText(label), 'x');
    }
    await submit(user, dialog, 'Submit Nomination');
    expect(form.getByText('Name must be at least 2 characters')).toBeInTheDocument();
    expect(form.getByText('Position is required')).toBeInTheDocument();
    expect(form.getByText('Nationality is required')).toBeInTheDocument();
    expect(form.getByText('Club is required')).toBeInTheDocument();
  });

  it.each([
    ['8', 'Player must be at least 9 years old'],
    ['51', 'Invalid age'],
  ])('refuses age %s with "%s"', async (age, message) => {
    const { requests, user } = renderNominate();
    const dialog = await openNominate(user);
    await fillValid(user, dialog);
    const field = within(dialog).getByLabelText('Age');
    await user.clear(field);
    await user.type(field, age);
    await submit(user, dialog, 'Submit Nomination');
    expect(within(dialog).getByText(message)).toBeInTheDocument();
    expect(requests).toHaveLength(0);
  });

  it.each(['2023', '2041'])('refuses graduation year %s', async (year) => {
    const { requests, user } = renderNominate();
    const dialog = await openNominate(user);
    await fillValid(user, dialog);
    await user.type(within(dialog).getByLabelText('Graduation Year (optional)'), year);
    await submit(user, dialog, 'Submit Nomination');
    expect(
      within(dialog).getByText('Graduation year must be between 2024 and 2040'),
    ).toBeInTheDocument();
    expect(requests).toHaveLength(0);
  });

  it('nominates in the selected sport, leaves blank optional fields out and says so', async () => {
    act(() => useSportStore.getState().setSport('hockey'));
    const { requests, user } = renderNominate();
    const dialog = await openNominate(user);
    expect(within(dialog).getByLabelText('Sport')).toHaveValue('hockey');
    await fillValid(user, dialog);
    await user.clear(within(dialog).getByLabelText('Age'));
    await user.type(within(dialog).getByLabelText('Graduation Year (optional)'), '2027');
    await submit(user, dialog, 'Submit Nomination');

    expect(await screen.findByText('Jordan Rivers has been nominated successfully.')).toBeVisible();
    expect(requests).toHaveLength(1);
    expect(requests[0].body).toEqual({
      name: 'Jordan Rivers',
      graduationYear: 2027,
      position: 'Point Guard',
      nationality: 'Canadian',
      club: 'Toronto Prep',
      sport: 'hockey',
      skills: 'Court vision.',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('accepts the edges of the ranges', async () => {
    const { requests, user } = renderNominate();
    const dialog = await openNominate(user);
    await fillValid(user, dialog);
    await user.clear(within(dialog).getByLabelText('Age'));
    await user.type(within(dialog).getByLabelText('Age'), '50');
    await user.type(within(dialog).getByLabelText('Graduation Year (optional)'), '2040');
    await user.type(
      within(dialog).getByLabelText('Highlight Video Link (optional)'),
      'https://v.example/x',
    );
    await submit(user, dialog, 'Submit Nomination');
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0].body).toMatchObject({
      age: 50,
      graduationYear: 2040,
      videoLink: 'https://v.example/x',
    });
  });

  it("shows the server's field messages on the fields, and no toast beside them", async () => {
    const { user } = renderNominate({
      status: 400,
      body: {
        message: 'Invalid input',
        code: 'validation_error',
        fields: { age: 'Player must be at least 9 years old' },
      },
    });
    const dialog = await openNominate(user);
    await fillValid(user, dialog);
    await submit(user, dialog, 'Submit Nomination');
    expect(
      await within(dialog).findByText('Player must be at least 9 years old'),
    ).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Age')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText('Invalid input')).not.toBeInTheDocument();
    expect(screen.queryByText('Error')).not.toBeInTheDocument();
  });

  it('falls back to its own message when the server gives none', async () => {
    const { user } = renderNominate({ status: 502, body: 'Bad gateway' });
    const dialog = await openNominate(user);
    await fillValid(user, dialog);
    await submit(user, dialog, 'Submit Nomination');
    expect(
      await screen.findByText('Failed to submit nomination. Please try again.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('links to the existing nomination of a player already nominated', async () => {
    const { user } = renderNominate({
      status: 409,
      body: {
        message: 'This player has already been nominated',
        code: 'duplicate_nomination',
        nominationId: 41,
      },
    });
    const dialog = await openNominate(user);
    await fillValid(user, dialog);
    await submit(user, dialog, 'Submit Nomination');
    const link = await within(dialog).findByRole('link', { name: 'View the existing nomination' });
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'This player has already been nominated.',
    );
    // Said once, in the notice: no toast repeats it.
    expect(screen.getAllByText(/This player has already been nominated/)).toHaveLength(1);
    expect(link).toHaveAttribute('href', '/nominations/41');
    await user.click(link);
    // The probe shows the old path until the navigation's transition renders.
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent('/nominations/41'),
    );
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('the Edit Player Information form', () => {
  const player: Player = makeNomination(5, {
    player: {
      id: 5,
      name: 'Mia Lopez',
      age: null,
      graduationYear: 2027,
      position: 'Winger',
      nationality: 'Mexican',
      club: 'América',
      sport: 'soccer',
      skills: 'Pace.',
      videoLink: 'https://v.example/mia',
    },
  }).player;

  function renderEdit(target: Player, response: MockResponse = { body: target }) {
    const { requests } = mockFetch({ 'PUT /api/players/5': response });
    renderRoutes(
      [
        {
          path: '/',
          element: (
            <EditPlayerDialog
              player={target}
              trigger={<button type="button">Edit Player</button>}
            />
          ),
        },
      ],
      { user: scout },
    );
    return { requests, user: userEvent.setup() };
  }

  async function openEdit(user: ReturnType<typeof userEvent.setup>) {
    await user.click(screen.getByRole('button', { name: 'Edit Player' }));
    return screen.findByRole('dialog', { name: 'Edit Player Information' });
  }

  it('starts from the player and saves every field, skills may be blank', async () => {
    const { requests, user } = renderEdit(player);
    const dialog = await openEdit(user);
    const form = within(dialog);
    expect(form.getByLabelText('Player Name')).toHaveValue('Mia Lopez');
    expect(form.getByLabelText('Age')).toHaveValue(null);
    expect(form.getByLabelText('Graduation Year (optional)')).toHaveValue(2027);
    expect(form.getByLabelText('Sport')).toHaveValue('soccer');
    await user.clear(form.getByLabelText('Skills & Strengths (optional)'));
    await user.clear(form.getByLabelText('Highlight Video Link (optional)'));
    await submit(user, dialog, 'Save Changes');

    expect(
      await screen.findByText("Mia Lopez's information has been updated successfully."),
    ).toBeInTheDocument();
    expect(requests[0]).toMatchObject({ method: 'PUT', url: '/api/players/5' });
    expect(requests[0].body).toEqual({
      name: 'Mia Lopez',
      graduationYear: 2027,
      position: 'Winger',
      nationality: 'Mexican',
      club: 'América',
      sport: 'soccer',
      skills: '',
      videoLink: '',
    });
  });

  it('has the same messages as the nomination form', async () => {
    const { requests, user } = renderEdit(player);
    const dialog = await openEdit(user);
    const form = within(dialog);
    for (const label of ['Player Name', 'Position', 'Nationality', 'Current Club/School']) {
      await user.clear(form.getByLabelText(label));
    }
    await user.type(form.getByLabelText('Age'), '51');
    await submit(user, dialog, 'Save Changes');
    for (const message of [
      'Name must be at least 2 characters',
      'Invalid age',
      'Position is required',
      'Nationality is required',
      'Club is required',
    ]) {
      expect(form.getByText(message)).toBeInTheDocument();
    }
    await user.clear(form.getByLabelText('Age'));
    await user.type(form.getByLabelText('Age'), '8');
    await submit(user, dialog, 'Save Changes');
    expect(form.getByText('Player must be at least 9 years old')).toBeInTheDocument();
    expect(requests).toHaveLength(0);
  });

  it('requires a sport when the player has one the form does not offer', async () => {
    const { requests, user } = renderEdit({ ...player, sport: 'volleyball' });
    const dialog = await openEdit(user);
    expect(within(dialog).getByLabelText('Sport')).toHaveValue('');
    await submit(user, dialog, 'Save Changes');
    expect(within(dialog).getByText('Please select a sport')).toBeInTheDocument();
    expect(requests).toHaveLength(0);
  });

  it('falls back to its own failure message', async () => {
    const { user } = renderEdit(player, { status: 500 });
    const dialog = await openEdit(user);
    await submit(user, dialog, 'Save Changes');
    expect(
      await screen.findByText('Failed to update player information. Please try again.'),
    ).toBeInTheDocument();
  });
});
