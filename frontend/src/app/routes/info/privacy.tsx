import { Link } from 'react-router';

import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { APP_NAME, SUPPORT_EMAIL } from '@/lib/site';

const sections: { title: string; body: string[] }[] = [
  {
    title: 'What we keep about athletes',
    body: [
      `${APP_NAME} is about young athletes, and many of them are minors. A nomination keeps what the nominating scout typed: the athlete's name, age or graduation year, position, nationality, club or school, sport, a description of their skills and, if given, a link to a highlight video. We keep no contact details, address, school records or photos of athletes.`,
      'Votes, follows and comments about an athlete are kept with the nomination. Rejected nominations are visible only to admins and to the scout who made them.',
    ],
  },
  {
    title: 'Asking for a takedown',
    body: [
      'An athlete, a parent or a guardian can ask for a nomination to be taken down at /takedown. No account is needed. An admin reviews every request, and while it is open the nomination can be hidden from the community.',
    ],
  },
  {
    title: 'What we keep about members',
    body: [
      'Your username, name, email address, password (stored only as a hash), favourite sport, optional profile details and picture, your settings, and what you do here: nominations, votes, follows, points and notifications. You can download your data from Settings and delete your account there at any time.',
    ],
  },
  {
    title: 'What we never do',
    body: [
      'We do not sell or share personal data, we show no advertising and we use only the cookies that keep you signed in and protect forms.',
    ],
  },
];

export default function PrivacyPage() {
  return (
    <>
      <PageHeader title="Privacy Policy" description={`What ${APP_NAME} keeps, and why.`} />
      <Card className="flex flex-col gap-8 p-6 sm:p-8">
        {sections.map((section) => (
          <section key={section.title} aria-labelledby={`privacy-${section.title}`}>
            <h2 id={`privacy-${section.title}`} className="text-lg font-semibold">
              {section.title}
            </h2>
            {section.body.map((paragraph) => (
              <p key={paragraph} className="mt-2 text-sm leading-relaxed text-foreground/80">
                {paragraph}
              </p>
            ))}
          </section>
        ))}
        <p className="text-sm">
          <Link to="/takedown" className="font-semibold text-primary hover:underline">
            Request a takedown
          </Link>{' '}
          or write to{' '}
          <a href={`mailto:${SUPPORT_EMAIL}`} className="text-primary hover:underline">
            {SUPPORT_EMAIL}
          </a>
          .
        </p>
      </Card>
    </>
  );
}
