import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { APP_NAME } from '@/lib/site';

const terms: { title: string; body: string }[] = [
  {
    title: 'Using the platform',
    body: `${APP_NAME} is free. You need an account to nominate, vote and follow; one person, one account.`,
  },
  {
    title: 'Nominating athletes',
    body: 'Nominate only real athletes, describe them fairly and share nothing private about them: no contact details, addresses or photos. Many athletes are minors; treat them with care.',
  },
  {
    title: 'Voting',
    body: 'One vote per member per nomination. Buying, trading or automating votes, or voting from several accounts, is not allowed; such votes are voided and the accounts removed.',
  },
  {
    title: 'Moderation',
    body: 'Admins review nominations and may reject or take down any of them, and remove accounts that break these terms.',
  },
  {
    title: 'Your account',
    body: 'You can download your data and delete your account at any time from Settings.',
  },
];

export default function TermsPage() {
  return (
    <>
      <PageHeader title="Terms of Service" description={`The rules of ${APP_NAME}, in short.`} />
      <Card className="p-6 sm:p-8">
        <ol className="flex list-decimal flex-col gap-6 pl-5">
          {terms.map((term) => (
            <li key={term.title}>
              <h2 className="text-lg font-semibold">{term.title}</h2>
              <p className="mt-1 text-sm leading-relaxed text-foreground/80">{term.body}</p>
            </li>
          ))}
        </ol>
      </Card>
    </>
  );
}
