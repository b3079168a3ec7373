/**
 * @module eval/conversations/templates
 * The words of the conversation set (issue 23, Evaluation): the facts a speaker can hold and change (where they
 * live, where they work, their editor, their project's main store, their weekend hobby), several phrasings of each
 * statement, change, question and of the other speakers' turns that share its words, and the small talk between.
 * `{v}` is a value, `{old}` the value before it, `{p}` the speaker, `{proj}` the speaker's project. Written for this
 * set; no outside data.
 */

export type FactKind = 'city' | 'employer' | 'editor' | 'store' | 'hobby';

export interface FactTemplates {
  readonly values: readonly string[];
  /** The speaker says what holds. */
  readonly state: readonly string[];
  /** The speaker says it changed from {old} to {v}. */
  readonly change: readonly string[];
  /** Asked about the value now. */
  readonly current: readonly string[];
  /** Asked about the value before {new}. */
  readonly before: readonly string[];
  /** Asked when it became {v}. */
  readonly when: readonly string[];
  /** Asked about the value at a time: {date} is a phrase such as "in May 2023". */
  readonly at: readonly string[];
  /** Another speaker's turn with the value's words, not about the speaker's fact. */
  readonly aside: readonly string[];
  /** Another speaker reacts to the speaker's fact (names them, shares the words; not itself the answer). */
  readonly reaction: readonly string[];
  /** Another speaker tells the change from {old} to {v} about {p} (dev 3 only; the turn answers as the change). */
  readonly told?: readonly string[];
  /** The speaker's next turn after a change, naming no value ("The flat there has a balcony"; dev 3 only). */
  readonly followUp?: readonly string[];
}

export const FACTS: Readonly<Record<FactKind, FactTemplates>> = {
  city: {
    values: ['Lisbon', 'Denver', 'Porto', 'Austin', 'Leeds', 'Osaka', 'Tallinn', 'Valencia', 'Calgary', 'Dublin'],
    state: [
      'I live in {v} these days.',
      "Home is {v} for me, I've got a small flat near the river.",
      "We're based in {v} at the moment.",
      'My place is in {v}, about ten minutes from the centre.',
    ],
    change: [
      'Big news: I moved to {v} last week, the boxes are still everywhere.',
      'I finally relocated from {old} to {v}.',
      'We packed everything up and left {old}; we live in {v} now.',
      "I'm settling into {v} after the move from {old}.",
    ],
    current: ['Where does {p} live now?', 'Which city is {p} living in these days?', 'What city is {p} based in?'],
    before: [
      'Where did {p} live before moving to {new}?',
      'Which city was {p} in before {new}?',
      'Where was {p} living before the move to {new}?',
    ],
    when: ['When did {p} move to {v}?', 'When did {p} relocate to {v}?', 'When did {p} start living in {v}?'],
    at: ['Where did {p} live {date}?', 'Which city was {p} living in {date}?'],
    aside: [
      'My sister lives in {v}, I visit her every summer.',
      'I was in {v} for a conference once, great food.',
      'There is a direct train to {v} from here now.',
    ],
    reaction: [
      '{p}, how do you like living in {v}?',
      'Oh, {v}! The weather there must be a change, {p}.',
      'Send pictures of {v}, {p}!',
    ],
  },
  employer: {
    values: [
      'Northwind',
      'Brightleaf',
      'Helix Labs',
      'Quarry Bank',
      'Orbital Foods',
      'Pinecrest Health',
      'Tidewater Logistics',
      'Lumen Studio',
      'Kestrel Insurance',
      'Saltmarsh Games',
    ],
    state: [
      'I work at {v} on the data team.',
      "I've been at {v} for a couple of years now.",
      'My job is at {v}, mostly backend work.',
      "At {v} we're busy with the quarterly release.",
    ],
    change: [
      'I started a new job at {v} on Monday.',
      'I left {old} and joined {v} this month.',
      'Last day at {old} was Friday; I begin at {v} next week.',
      "I accepted the offer from {v}, so I'm leaving {old}.",
    ],
    current: ['Where does {p} work now?', 'Which company is {p} working for?', "What is {p}'s employer these days?"],
    before: [
      'What company did {p} work for before {new}?',
      'Where did {p} work before joining {new}?',
      "What was {p}'s job before {new}?",
    ],
    when: ['When did {p} start working at {v}?', 'When did {p} join {v}?', 'When did {p} take the job at {v}?'],
    at: ['Where did {p} work {date}?', 'Which company employed {p} {date}?'],
    aside: [
      'A friend of mine interviewed at {v} and hated the process.',
      '{v} had a big announcement in the news today.',
      'I applied to {v} years ago and never heard back.',
    ],
    reaction: ['Congrats on {v}, {p}!', '{p}, is {v} treating you well?', 'How are the people at {v}, {p}?'],
  },
  editor: {
    values: ['VS Code', 'Neovim', 'Emacs', 'IntelliJ', 'Sublime Text', 'Zed', 'Helix', 'Vim'],
    state: [
      'I write all my code in {v}.',
      'My editor is {v}, with far too many plugins.',
      "I'm a {v} person, it opens instantly for me.",
      'I do everything in {v}, even my notes.',
    ],
    change: [
      'I switched from {old} to {v} for my coding.',
      "I've dropped {old}; {v} is my editor now.",
      'After years of {old} I moved over to {v}.',
      'I gave {v} a real try and uninstalled {old}.',
    ],
    current: ['Which editor does {p} use now?', 'What does {p} write code in these days?', "What is {p}'s editor?"],
    before: [
      'What editor did {p} use before switching to {new}?',
      'Which editor did {p} code in before {new}?',
      'What did {p} code in before moving to {new}?',
    ],
    when: ['When did {p} switch to {v}?', 'When did {p} start using {v} for code?', 'When did {p} move to {v}?'],
    at: ['Which editor did {p} use {date}?', 'What was {p} coding in {date}?'],
    aside: [
      'I tried {v} once but the key bindings lost me.',
      'Someone at the meetup gave a talk about {v} plugins.',
      'My whole team argues about {v} every week.',
    ],
    reaction: ['{p}, is {v} really that much faster?', 'Brave move going to {v}, {p}.', 'Share your {v} config, {p}?'],
  },
  store: {
    values: ['Postgres', 'MySQL', 'SQLite', 'MongoDB', 'DynamoDB', 'Redis', 'Cassandra', 'CockroachDB'],
    state: [
      'We use {v} for the main store of {proj}.',
      '{proj} keeps everything in {v}.',
      'The database behind {proj} is {v}.',
      'For {proj} we picked {v} as the store.',
    ],
    change: [
      'We moved the main store of {proj} from {old} to {v}.',
      '{proj} runs on {v} now; we migrated off {old}.',
      'The migration is done: {proj} left {old} for {v}.',
      'We replaced {old} with {v} in {proj}.',
    ],
    current: [
      'Which database does {p} use for {proj} now?',
      "What is the main store of {p}'s {proj}?",
      'What does {proj} run on these days?',
    ],
    before: [
      'What database did {proj} use before {new}?',
      'What did {p} store {proj} in before moving to {new}?',
      "Which store was behind {p}'s {proj} before {new}?",
    ],
    when: [
      'When did {proj} move to {v}?',
      'When did {p} migrate {proj} to {v}?',
      'When did {p} switch the store of {proj} to {v}?',
    ],
    at: ['Which database did {proj} use {date}?', "What was the store of {p}'s {proj} {date}?"],
    aside: [
      'I read a long post about tuning {v} for writes.',
      'Our ops team is allergic to {v}, long story.',
      'Is {v} still a good choice for a small project?',
    ],
    reaction: ['{p}, how was the {v} migration?', 'Did {v} fix the slow queries, {p}?', 'Why {v}, {p}?'],
  },
  hobby: {
    values: ['tennis', 'climbing', 'chess', 'rowing', 'salsa', 'pottery', 'cycling', 'swimming'],
    state: [
      'I play {v} on weekends.',
      'Saturdays are for {v}, without exception.',
      'My weekend hobby is {v}.',
      "I've been doing {v} every Sunday morning.",
    ],
    change: [
      "I've given up {old} and taken up {v}.",
      'I quit {old}; now my weekends are all {v}.',
      'I started {v} lessons, no more {old} for me.',
      'I swapped {old} for {v} on Saturdays.',
    ],
    current: ['What does {p} do on weekends now?', "What is {p}'s hobby these days?", 'Which hobby does {p} have?'],
    before: [
      'What hobby did {p} have before {new}?',
      'What did {p} do on weekends before taking up {new}?',
      "Which hobby was {p}'s before {new}?",
    ],
    when: ['When did {p} take up {v}?', 'When did {p} start {v}?', 'When did {p} get into {v}?'],
    at: ['What did {p} do on weekends {date}?', "What was {p}'s hobby {date}?"],
    aside: [
      'My neighbour teaches {v} at the community centre.',
      'I watched a {v} tournament on TV last night.',
      'My kids want to try {v} this summer.',
    ],
    reaction: ['{p}, are you any good at {v} yet?', 'Love that you do {v}, {p}.', 'Where do you go for {v}, {p}?'],
  },
};

export const FACT_KINDS = Object.keys(FACTS) as FactKind[];

export const SPEAKERS = [
  'Maya',
  'Jonas',
  'Priya',
  'Tomas',
  'Aiko',
  'Femi',
  'Lucia',
  'Omar',
  'Greta',
  'Ravi',
  'Nadia',
  'Elliot',
  'Sofia',
  'Kwame',
  'Ines',
  'Marek',
] as const;

export const PROJECTS = ['Ledger', 'Stockroom', 'Wayfarer', 'Tally', 'Pantry', 'Chatterbox', 'Paycheck', 'Shoebox'];

/** Turns about nothing in particular; `{p}` is another speaker. */
export const SMALL_TALK = [
  'Morning everyone!',
  "How's your week going, {p}?",
  'Pretty busy, but good. You?',
  'It rained all day here, I barely left the house.',
  'I made a huge pot of soup last night.',
  'Anyone watching anything good lately?',
  'I finished that mystery novel, the ending was silly.',
  'Coffee number three already, send help.',
  'My cat knocked a plant off the shelf again.',
  'Did you see the match on Saturday?',
  'Ha, that sounds about right.',
  'We should do a call with everyone soon.',
  "I'm so tired, the neighbours' dog barked all night.",
  'Long weekend coming up, finally.',
  'Sorry, I was offline for a bit, what did I miss?',
  'That reminds me, I owe you lunch, {p}.',
  'The new bakery on the corner is excellent.',
  "I'm trying to drink less coffee, it isn't working.",
  'Good luck with the deadline, {p}.',
  'Talk later, I have a meeting.',
  'My parents are visiting next week.',
  'I found an old photo of us from the trip, {p}.',
  'Honestly, I need a holiday.',
  'Nice, glad to hear it.',
];
