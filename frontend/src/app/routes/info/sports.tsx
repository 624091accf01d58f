import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { APP_NAME } from '@/lib/site';
import { SPORTS } from '@/stores/sport';

export default function SportsPage() {
  return (
    <>
      <PageHeader
        title="Sports"
        description={`${APP_NAME} has a community, leaderboards and a feed for each of these sports. Pick yours with the sport selector in the header.`}
      />
      <ul className="grid grid-cols-[repeat(auto-fill,minmax(10rem,1fr))] gap-4">
        {SPORTS.map(({ value, label, icon: Icon }) => (
          <li key={value}>
            <Card className="flex items-center gap-3 p-5">
              <Icon className="size-6 text-primary" aria-hidden="true" />
              <span className="font-semibold">{label}</span>
            </Card>
          </li>
        ))}
      </ul>
    </>
  );
}
