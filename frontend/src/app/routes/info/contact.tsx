import { Clock, Globe, Mail } from 'lucide-react';

import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { SUPPORT_EMAIL, WEBSITE_URL } from '@/lib/site';

const topics = [
  'Account and sign-in',
  'Nominations and voting',
  'Leaderboards and points',
  'Privacy and profile visibility',
  'Reporting a problem or inappropriate content',
  'Partnerships and business',
];

const responseTimes = [
  { kind: 'General inquiries', time: '24-48 hours' },
  { kind: 'Technical support', time: '12-24 hours' },
  { kind: 'Business inquiries', time: '2-3 business days' },
];

export default function ContactPage() {
  return (
    <div className="mx-auto max-w-4xl">
      <PageHeader
        title="Contact Us"
        description="Questions, problems or ideas: we read every message."
      />
      <div className="grid gap-6 md:grid-cols-2">
        <Card className="p-6">
          <h2 className="text-lg font-semibold">Get in touch</h2>
          <ul className="mt-4 flex flex-col gap-4">
            <li className="flex items-start gap-3">
              <Mail className="mt-0.5 size-5 text-primary" aria-hidden="true" />
              <div>
                <p className="text-sm font-medium">Support email</p>
                <a href={`mailto:${SUPPORT_EMAIL}`} className="text-primary hover:underline">
                  {SUPPORT_EMAIL}
                </a>
              </div>
            </li>
            <li className="flex items-start gap-3">
              <Globe className="mt-0.5 size-5 text-primary" aria-hidden="true" />
              <div>
                <p className="text-sm font-medium">Website</p>
                <a
                  href={WEBSITE_URL}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="text-primary hover:underline"
                >
                  {WEBSITE_URL.replace(/^https?:\/\//, '')}
                </a>
              </div>
            </li>
          </ul>
        </Card>

        <Card className="p-6">
          <h2 className="flex items-center gap-2 text-lg font-semibold">
            <Clock className="size-5 text-primary" aria-hidden="true" />
            Response times
          </h2>
          <dl className="mt-4 divide-y divide-border">
            {responseTimes.map(({ kind, time }) => (
              <div key={kind} className="flex justify-between gap-4 py-2.5">
                <dt className="text-muted-foreground">{kind}</dt>
                <dd className="font-semibold">{time}</dd>
              </div>
            ))}
          </dl>
        </Card>

        <Card className="p-6 md:col-span-2">
          <h2 className="text-lg font-semibold">We can help with</h2>
          <ul className="mt-4 grid gap-2 sm:grid-cols-2">
            {topics.map((topic) => (
              <li key={topic} className="rounded-lg bg-muted px-3 py-2 text-sm">
                {topic}
              </li>
            ))}
          </ul>
          <p className="mt-4 text-sm text-muted-foreground">
            Include your username and, for a nomination, the player&apos;s name so we can help
            faster.
          </p>
        </Card>
      </div>
    </div>
  );
}
