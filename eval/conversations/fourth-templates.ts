/**
 * @module eval/conversations/fourth-templates
 * A second development phrasing of the conversation set (issue 23), written in a later session than templates.ts
 * as a second set to develop on: the same five kinds of fact in styles unlike dev's (indirect and elliptical
 * statements, "X's my daily driver now", "we ditched Y", long chit-chat around a fact, a typo or two; questions with
 * other time words: "these days", "at the moment", "nowadays"), with values of its own. Its seed is 4023
 * (generate.ts FOURTH_SEED). The rules may be tuned on it as on dev; held-out and third stay measured only. Written
 * for this set; no outside data.
 */
import type { FactKind, FactTemplates } from './templates.js';

export const FOURTH_FACTS: Readonly<Record<FactKind, FactTemplates>> = {
  city: {
    values: ['Bergen', 'Montreal', 'Krakow', 'Nairobi', 'Seville', 'Adelaide', 'Ghent', 'Utrecht', 'Halifax', 'Bilbao'],
    state: [
      'Still loving {v}, honestly the best decision, even with the hills and the tourists and everything.',
      'Our flat in {v} finally has working heating, so that is a win.',
      "{v}'s been home for a while now, can't see myself anywhere else tbh.",
      'Walked along the harbour in {v} after work, I never get tired of it.',
    ],
    change: [
      'Ok so the big thing: we packed up the van and ended up in {v}, goodbye {old}!',
      'New address, new city: {v}. The {old} flat is somebody elses problem now.',
      'Swapped {old} for {v} last week, still finding my way around the neighbourhood.',
      'Relocation done, {v} it is. Miss the cafes in {old} a bit though.',
    ],
    current: [
      'Where is {p} living at the moment?',
      'Which city does {p} call home nowadays?',
      "Where's {p} based these days?",
    ],
    before: [
      'Which city did {p} leave for {new}?',
      'Where was home for {p} until {new}?',
      'What city did {p} live in prior to {new}?',
    ],
    when: ['When did {p} end up in {v}?', 'When did {p} get settled in {v}?', 'At what point did {p} relocate to {v}?'],
    at: ['Which city was home for {p} {date}?', 'Where was {p} staying {date}?'],
    aside: [
      'My brother keeps sending me flat listings from {v}, no idea why.',
      'Flights to {v} are weirdly cheap this month.',
      'There was a documentary about {v} on last night, lovely old streets.',
    ],
    reaction: [
      '{p}, is {v} as rainy as people say?',
      'Ooh {v}, jealous! Enjoy it {p}.',
      '{p} I need a tour of {v} when I visit.',
    ],
  },
  employer: {
    values: [
      'Fernway',
      'Cobalt Analytics',
      'Marlow Bank',
      'Gridline',
      'Sunpeak Energy',
      'Harbor Robotics',
      'Quillon',
      'Redfern Media',
      'Tangent Labs',
      'Oakhurst Retail',
    ],
    state: [
      'Another long day at {v}, the standups there never end lol.',
      '{v} keeps me busy, three launches this quarter and a reorg on top.',
      'My badge for {v} stopped working again, had to wait at reception for ages.',
      "Things at {v} are calm for once, so I'm actually taking a lunch break.",
    ],
    change: [
      'Handed in my notice at {old}, first week at {v} went fine so far.',
      'Said goodbye to {old} on Friday, {v} badge arrives tomorrow.',
      'Ended up taking the {v} offer, {old} is behind me now.',
      'Small update: I am a {v} employee as of this month, so long {old}.',
    ],
    current: [
      'Who is {p} working for at the moment?',
      'Which company pays {p} nowadays?',
      "Who's {p}'s employer these days?",
    ],
    before: [
      'Which company did {p} leave for {new}?',
      'Who employed {p} prior to {new}?',
      'Where was {p} working until {new}?',
    ],
    when: ['When did {p} come on board at {v}?', 'When did {p} get hired by {v}?', 'When did {p} begin at {v}?'],
    at: ['Who was {p} working for {date}?', "Which company was {p}'s employer {date}?"],
    aside: [
      '{v} is hiring again apparently, saw it on the job boards.',
      'My uncle did some consulting for {v} ages ago.',
      'Someone from {v} spoke at the meetup, pretty decent talk.',
    ],
    reaction: [
      '{p}, how are you finding {v} so far?',
      'Nice one {p}, {v} is a solid place.',
      'Do they feed you well at {v}, {p}?',
    ],
  },
  editor: {
    values: ['Kate', 'Nova', 'Fleet', 'Xcode', 'Eclipse', 'Lapce', 'Nano', 'Micro'],
    state: [
      "{v}'s my daily driver now, can't imagine going back.",
      'Spent the whole evening tweaking my {v} setup instead of actually coding, classic.',
      'Everything I write goes through {v} these days, even commit messages.',
      "Opened {v} this morning and the theme update is gorgeous, I'm hooked.",
    ],
    change: [
      'Switched to {v} last week, {old} was eating all my RAM.',
      'Ditched {old}, moved over to {v} for everything.',
      'Finally made the jump from {old}, {v} is what I open now.',
      'Uninstalled {old} yesterday, {v} does it all for me now.',
    ],
    current: [
      "What's {p} coding in at the moment?",
      'Which editor is {p} on nowadays?',
      'What does {p} open to write code these days?',
    ],
    before: [
      'Which editor did {p} drop for {new}?',
      'What was {p} coding in until {new}?',
      'Which editor did {p} have prior to {new}?',
    ],
    when: ['When did {p} make the jump to {v}?', 'When did {p} start coding in {v}?', 'When did {p} adopt {v}?'],
    at: ['Which editor was {p} coding in {date}?', 'What did {p} write code with {date}?'],
    aside: [
      'Somebody posted a {v} cheat sheet in the group chat.',
      'The {v} release notes were longer than the actual release.',
      'My flatmate swears at {v} every morning, it is kind of funny.',
    ],
    reaction: [
      '{p} send me your {v} dotfiles pls',
      'Welcome to the {v} club, {p}!',
      '{p}, does {v} handle big repos ok?',
    ],
  },
  store: {
    values: ['MariaDB', 'Neo4j', 'Couchbase', 'ClickHouse', 'Firestore', 'ScyllaDB', 'InfluxDB', 'Elasticsearch'],
    state: [
      '{proj} sits on {v}, and it has been boringly reliable.',
      "All of {proj}'s data lives in {v}, backups every night.",
      '{v} under {proj} handled the traffic spike without a blip.',
      'Spent the morning on {v} indexes for {proj}, queries are snappy again.',
    ],
    change: [
      'We ditched {old}; {proj} is on {v} now.',
      '{proj} finally moved over to {v}, {old} is switched off for good.',
      'Cutover weekend done: {proj} talks to {v} now instead of {old}.',
      'Ripped {old} out of {proj} and put {v} in, way less pain.',
    ],
    current: [
      "What's {proj} running on at the moment?",
      'Which database sits under {proj} nowadays?',
      "Where does {p}'s {proj} keep its data these days?",
    ],
    before: [
      'Which database did {proj} drop for {new}?',
      "What was under {p}'s {proj} until {new}?",
      'Which store did {proj} have prior to {new}?',
    ],
    when: ['When did {proj} go over to {v}?', 'When was {proj} cut over to {v}?', 'When did {p} put {proj} on {v}?'],
    at: ['Which database was {proj} running on {date}?', 'Where did {proj} keep its data {date}?'],
    aside: [
      'A recruiter asked me if I know {v}, I said kind of.',
      'The {v} conference videos are finally online.',
      'Heard {v} changed its licence again, what a mess.',
    ],
    reaction: [
      '{p}, any regrets about {v}?',
      'Bold, {v} for {proj}. Keep us posted {p}.',
      'How long did the {v} cutover take, {p}?',
    ],
  },
  hobby: {
    values: ['bouldering', 'archery', 'kayaking', 'fencing', 'knitting', 'birdwatching', 'baking', 'surfing'],
    state: [
      'Sunday was all {v} again, my arms are jelly.',
      "{v}'s pretty much my whole weekend routine these days.",
      'Signed up for another {v} session on Saturday, totally hooked.',
      'Nothing beats a morning of {v} to clear the head after a long week.',
    ],
    change: [
      'Got bored of {old}, so weekends are {v} now.',
      'Sold my {old} gear, {v} is the new obsession.',
      'Traded {old} for {v}, best decision this year.',
      'No more {old} for me, I picked up {v} a couple of weeks back.',
    ],
    current: [
      'What does {p} get up to on weekends at the moment?',
      "What's {p} into nowadays?",
      'Which hobby keeps {p} busy these days?',
    ],
    before: [
      'Which hobby did {p} drop for {new}?',
      'What did {p} spend weekends on until {new}?',
      'What was {p} into prior to {new}?',
    ],
    when: ['When did {p} pick up {v}?', 'When did {p} get hooked on {v}?', 'When did {p} begin doing {v}?'],
    at: ['What was {p} into {date}?', 'What did {p} spend weekends on {date}?'],
    aside: [
      'There is a {v} club starting up near the station.',
      'My dentist is obsessed with {v}, she talks about nothing else.',
      'Saw a video of some {v} world record, unreal.',
    ],
    reaction: [
      '{p}, is {v} hard to get into?',
      "Haha {p} and {v}, didn't see that coming.",
      'Take me along for {v} some time, {p}!',
    ],
  },
};

/** The speakers' own holding asides in this phrasing ({v}: the value that holds, {x}: another, {o}: another). */
export const FOURTH_HOLDING_ASIDES: readonly string[] = [
  'People keep pushing {x} on me; {v} works, so no thanks.',
  'Might give {x} a spin one of these days; {v} for now.',
  '{o} would not stop talking about {x} at dinner; still on {v} here.',
  'Had a look at {x} at the weekend, not for me; {v} stays.',
  '{x} vs {v}? {v}, no contest.',
  '{o} and I went to a {v} meetup on Tuesday, good crowd.',
  'A friend who got me into {v} just moved away.',
  'The {v} forum had a thread about our team today, lol.',
];
