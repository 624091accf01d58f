// The boards' order and tie numbering are the pages' too: one set of helpers in src/lib.
export {
  applyVote,
  BOARD_SIZE as WALL_SIZE,
  byNominations,
  byVotes,
  rank,
  topOf,
  type Ranked,
} from '@/lib/ranks';
