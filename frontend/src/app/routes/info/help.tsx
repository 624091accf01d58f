import { ChevronDown } from 'lucide-react';
import { Link } from 'react-router';

import { buttonClasses } from '@/components/ui/button-classes';
import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { APP_NAME } from '@/lib/site';

const faqs: { question: string; answer: string }[] = [
  {
    question: `What is ${APP_NAME}?`,
    answer: `${APP_NAME} is a community scouting platform. Scouts, coaches, parents and fans nominate promising young athletes, vote on nominations and follow the players they believe in.`,
  },
  {
    question: 'How do I nominate a player?',
    answer:
      "Sign in and press Nominate Player. Fill in the player's name, age or graduation year, position, nationality, club or school, sport and skills, and add a highlight video link if you have one.",
  },
  {
    question: 'What happens after I submit a nomination?',
    answer:
      'Every nomination starts as pending. It is open to community votes straight away and is reviewed by admins, who approve or reject it.',
  },
  {
    question: 'How many times can I vote?',
    answer:
      'One vote per user per nomination. Press VOTED again to take your vote back; you can vote on as many different nominations as you like.',
  },
  {
    question: 'Can I edit a nomination after submitting it?',
    answer:
      'No. Nominations cannot be edited after submission, so check the details before you submit. If something is wrong, contact support.',
  },
  {
    question: `Does ${APP_NAME} cost anything?`,
    answer: `No. ${APP_NAME} is free for everyone: nominating, voting, following and the leaderboards cost nothing.`,
  },
  {
    question: 'Can athletes create their own profiles?',
    answer:
      'No. Athletes are discovered by the community: only community members nominate players.',
  },
  {
    question: 'How do I switch sports?',
    answer:
      'Use the sport selector in the navigation bar (in the menu on mobile). Football, basketball, baseball, soccer and hockey are available, and your choice filters everything you see.',
  },
  {
    question: 'How do the leaderboards work?',
    answer:
      'Top Players ranks nominations by community votes and Top Scouts ranks members by the nominations they have made. Both show the top 10 for the selected sport and update live.',
  },
  {
    question: 'Who can see my profile?',
    answer:
      'You decide. In Settings, set your profile visibility to public, followers or private, and choose whether other members can discover you.',
  },
];

export default function HelpPage() {
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title="Help Center" description="Answers to the questions members ask most." />
      <section aria-labelledby="faq-heading">
        <h2 id="faq-heading" className="mb-4 text-xl font-semibold">
          Frequently asked questions
        </h2>
        <div className="flex flex-col gap-3">
          {faqs.map(({ question, answer }) => (
            <details
              key={question}
              className="group rounded-xl border border-border bg-surface shadow-sm"
            >
              <summary className="flex cursor-pointer list-none items-center justify-between gap-4 p-4 font-medium [&::-webkit-details-marker]:hidden">
                {question}
                <ChevronDown
                  className="size-5 shrink-0 text-muted-foreground transition-transform group-open:rotate-180"
                  aria-hidden="true"
                />
              </summary>
              <p className="px-4 pb-4 text-muted-foreground">{answer}</p>
            </details>
          ))}
        </div>
      </section>

      <Card className="mt-10 p-6 sm:p-8">
        <h2 className="text-xl font-semibold">Is your child on {APP_NAME}?</h2>
        <p className="mt-2 text-muted-foreground">
          If you are the athlete, or the parent or guardian of a child with a profile here, you can
          ask us to remove or correct it. You do not need an account: open the form, paste the link
          of the player page and give your email address. We email you a link to confirm, and as
          soon as you confirm, the profile is hidden from people who are not signed in and from
          shared links while our moderators review your request.
        </p>
        <Link to="/takedown" className={`${buttonClasses({ variant: 'outline' })} mt-4`}>
          Ask us to take a profile down
        </Link>
      </Card>

      <Card className="mt-6 p-6 text-center sm:p-8">
        <h2 className="text-xl font-semibold">Contact Support</h2>
        <p className="mt-2 text-muted-foreground">
          Didn&apos;t find your answer? Learn the basics or get in touch with our team.
        </p>
        <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
          <Link to="/how-it-works" className={buttonClasses({ variant: 'outline' })}>
            How It Works
          </Link>
          <Link to="/contact" className={buttonClasses()}>
            Contact Us
          </Link>
        </div>
      </Card>
    </div>
  );
}
