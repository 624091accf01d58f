import { Flame, CalendarDays, Trophy } from 'lucide-react';

import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { BOARD_KINDS, BOARD_TEXT, type BoardKind } from '@/lib/boards';
import type { Sport } from '@/stores/sport';

import { TopPlayers } from './leaderboards';

const ICONS = { all: Trophy, trending: Flame, weekly: CalendarDays };

/**
 * The players' boards as tabs: All time (the specification's board, docs/specification.md §2), Trending and This week,
 * each kept live by its own leaderboard event. The shown board is the caller's (the URL's).
 */
export function PlayerBoards({
  sport,
  board,
  onBoardChange,
}: {
  sport: Sport;
  board: BoardKind;
  onBoardChange: (board: BoardKind) => void;
}) {
  return (
    <Tabs value={board} onValueChange={(value) => onBoardChange(value as BoardKind)}>
      <TabsList aria-label="Boards" className="mb-4">
        {BOARD_KINDS.map((kind) => {
          const Icon = ICONS[kind];
          return (
            <TabsTrigger key={kind} value={kind}>
              <Icon className="size-4" aria-hidden="true" />
              {BOARD_TEXT[kind].label}
            </TabsTrigger>
          );
        })}
      </TabsList>
      {BOARD_KINDS.map((kind) => (
        <TabsContent key={kind} value={kind} className="outline-none">
          <p className="mb-4 text-sm text-muted-foreground">{BOARD_TEXT[kind].counts}</p>
          <TopPlayers sport={sport} board={kind} />
        </TabsContent>
      ))}
    </Tabs>
  );
}
