/**
 * @module eval/conversations/fifth-templates
 * A third development phrasing of the conversation set (issue 23, dev 3), written after templates.ts and
 * fourth-templates.ts and avoiding their words: a change said the way people say it in chat, with no change word
 * ("Cleared out my desk at X on Friday. Monday I get a Y laptop"), a value said and then referred to by a pronoun
 * ("The Y folks called back. I said yes"), a speaker correcting themselves ("Oops, put X on the form again"), a change
 * told by another speaker ("Quick gossip: Ravi signed with Y") and a speaker's follow-up that names no value ("The
 * onboarding there is three whole days"); questions in many other ways ("Remind me where Ravi lives?", "Since when
 * has …", "How long ago did …"), with values of its own. Its seed is 5023 (generate.ts FIFTH_SEED). The rules may be
 * tuned on it as on dev and dev 2; held-out and third stay measured only. Written for this set; no outside data.
 */
import type { FactKind, FactTemplates } from './templates.js';

export const FIFTH_FACTS: Readonly<Record<FactKind, FactTemplates>> = {
  city: {
    values: ['Tromso', 'Ljubljana', 'Wellington', 'Cork', 'Graz', 'Quito', 'Lyon', 'Aarhus', 'Hobart', 'Pune'],
    state: [
      'The tram outside my window in {v} woke me at six again.',
      'Found a bakery three streets from my place in {v}, that is where my Sundays go.',
      "Can't complain about {v}. The rent is another story, but the place grows on you.",
      'Autumn in {v} is something else, you all have to come and see it.',
    ],
    change: [
      'Keys handed back to the {old} landlord on Friday. First night in {v} and the neighbours already said hello.',
      'Sorry for the silence, the internet in the {v} flat only came on today. {old} feels like a lifetime ago.',
      'I keep telling people I live in {old}, then I remember: it has been {v} since the lease started.',
      'Correction to what I said last time: not {old} anymore, the {v} place came through and we took it.',
    ],
    told: [
      'Bumped into {p} at the station, they have a place in {v} and are done with {old}.',
      '{p} sent a photo of the view from the {v} flat! Who saw that coming after all those years in {old}.',
      "According to {p}'s mum the {old} days are over; it's {v} for them from here on.",
    ],
    followUp: [
      'The flat there has a balcony, finally.',
      'Still figuring out the buses there, I got lost twice.',
      'Everyone there cycles, I feel very out of shape.',
    ],
    current: [
      'Remind me where {p} lives?',
      'What town would I post a birthday card to for {p}?',
      'If I wanted to visit {p}, where would I fly to?',
      "{p}'s home city, what is it today?",
      'Where has {p} ended up living?',
    ],
    before: [
      'Where did {p} live earlier, ahead of {new}?',
      'Which city did {p} use to call home, pre-{new}?',
      "What was {p}'s old city, the one {new} took over from?",
    ],
    when: [
      'Since when has {p} been in {v}?',
      'What date did {p} land in {v}?',
      'How long ago did {p} get to {v}, which day?',
    ],
    at: ['{date}, which city did {p} call home?', 'What city had {p} as a resident {date}?'],
    aside: [
      'The airline lost my bag on the way back from {v}, classic.',
      "Apparently {v} has the best street food around, someone at work won't shut up about it.",
      "My cousin's wedding is in {v} next spring.",
    ],
    reaction: [
      "Haha {p} you'll need a proper coat for {v}.",
      'So jealous {p}, {v} looks gorgeous in your photos.',
      "{p} save me the couch, I'm coming to {v}.",
    ],
  },
  employer: {
    values: [
      'Bramble Health',
      'Copperline',
      'Veritas Freight',
      'Lodestar',
      'Mosaic Learning',
      'Driftwood Studios',
      'Kiln Software',
      'Ironbark Bank',
      'Parallax',
      'Wrenfield',
    ],
    state: [
      'Payroll at {v} messed up my overtime again, third month running.',
      'Lunch at {v} is free on Fridays, which is half the reason I stay.',
      'Our floor at {v} got new chairs, my back says thank you.',
      'Busy stretch at {v}, the client demos keep piling up.',
    ],
    change: [
      'Cleared out my desk at {old} on Friday. Monday I get a {v} laptop and a fresh inbox.',
      "The {v} folks called back. I said yes. Two weeks of notice at {old} and then I'm theirs.",
      'Email signature updated: {v}. Still typing {old} out of habit though.',
      'Oops, put {old} on the form again. Habit. My employer is {v}, has been for a few weeks.',
    ],
    told: [
      '{p} got the {v} job, by the way! {old} threw a farewell lunch for them.',
      "Heard from {p}'s sister that {old} is history and it's {v} for {p} from here on.",
      'Quick gossip: {p} signed with {v}. {old} must be gutted.',
    ],
    followUp: [
      'The onboarding there is three whole days, send snacks.',
      'They gave me a standing desk there, fancy.',
      'My manager there seems nice so far.',
    ],
    current: [
      "Who pays {p}'s salary?",
      'Which company has {p} on staff?',
      'Where is {p} employed?',
      "What's the name of {p}'s company?",
      'Where does {p} go to work in the mornings?',
    ],
    before: [
      'Which company had {p} earlier, ahead of {new}?',
      'Where did {p} use to work, pre-{new}?',
      "Who was {p}'s old employer, the one {new} took over from?",
    ],
    when: [
      'Since when has {p} been with {v}?',
      'What date did {p} get taken on by {v}?',
      'How long ago did {p} sign with {v}, which day?',
    ],
    at: ['{date}, which company did {p} work for?', 'Which firm had {p} on its payroll {date}?'],
    aside: [
      '{v} was in the paper for some lawsuit, messy.',
      'My landlord used to do IT for {v}, small world.',
      '{v} sponsors the football team down the road.',
    ],
    reaction: [
      '{p}, do you get a discount at {v}? Asking for me.',
      'Ooh {v}, fancy. Proud of you {p}.',
      '{p} tell me {v} has a decent coffee machine.',
    ],
  },
  editor: {
    values: ['BBEdit', 'Cursor', 'WebStorm', 'Geany', 'Kakoune', 'CLion', 'Rider', 'Brackets'],
    state: [
      'Three hours fighting a {v} plugin tonight. Worth it, I think.',
      "Whatever I'm writing, it ends up in {v}; the muscle memory is too strong.",
      "My {v} theme is purple this week, don't judge.",
      'Paired with a junior today, she was impressed by my {v} shortcuts.',
    ],
    change: [
      '{old} crashed mid-demo. That was it. {v} from the next morning on, no regrets.',
      'Gave {v} one weekend and never opened {old} again.',
      'I keep hitting {old} shortcuts in {v}, the muscle memory takes a while.',
      'Small correction from the other day: it is {v} I code in, {old} was last year.',
    ],
    told: [
      '{p} showed me the {v} setup on their laptop yesterday; looks like {old} is gone for good.',
      'Watched {p} code on a call, all in {v}. No more {old} on that machine.',
      '{p} announced at standup: {old} is history, {v} on every project.',
    ],
    followUp: [
      'The debugger in it is so much nicer.',
      'Took me a day to get the fonts right in it.',
      'It starts in a second, no more waiting around.',
    ],
    current: [
      'Which editor has {p} got open all day?',
      'What tool does {p} write code in?',
      "What's {p} typing code into lately?",
      'Where does {p} do their programming, which editor?',
      "Remind me of {p}'s editor of choice?",
    ],
    before: [
      'Which editor did {p} use earlier, ahead of {new}?',
      'What did {p} program in previously, pre-{new}?',
      "Which editor was {p}'s old favourite, the one {new} took over from?",
    ],
    when: [
      'Since when has {p} been coding in {v}?',
      'What date did {p} go with {v}?',
      'How long ago did {p} take on {v}, which day?',
    ],
    at: ['{date}, which editor did {p} program in?', 'What tool was {p} writing code with {date}?'],
    aside: [
      'Did anyone else see the {v} keynote? Mostly buzzwords.',
      'A {v} extension broke the build server at work, fun times.',
      'Found a {v} sticker in my bag, no idea where from.',
    ],
    reaction: [
      "{p} you're in {v} too? Send tips.",
      "Bold call {p}, I couldn't live with {v}.",
      "{p}, how's the {v} debugger?",
    ],
  },
  store: {
    values: ['DuckDB', 'TiDB', 'RethinkDB', 'Supabase', 'Bigtable', 'Snowflake', 'FoundationDB', 'ArangoDB'],
    state: [
      'Backups for {proj} on {v} finished in ten minutes, love it.',
      'The {v} cluster behind {proj} needs a bigger disk soon.',
      "{proj}'s reports are all {v} queries, I could write them in my sleep.",
      'Paged at 3am because {v} under {proj} ran out of connections, lovely.',
    ],
    change: [
      '{proj} reads from {v} since Tuesday. The {old} boxes get wiped next week.',
      'Last {old} table of {proj} exported tonight; {v} has everything.',
      'We pointed {proj} at {v} over the weekend. {old}, rest in peace.',
      "Typo in my last message: {proj} is on {v}, not {old}, that one's retired.",
    ],
    told: [
      "{p}'s team put {proj} on {v}, saw the ticket. {old} is getting decommissioned.",
      "Heard {p} finally got {proj} off {old}; it's all {v} behind it.",
      '{p} pulled an all-nighter getting {proj} onto {v}; {old} is dark.',
    ],
    followUp: [
      'Queries on it come back in half the time.',
      'The bill for it is a third of what we paid.',
      'Nobody has been paged for it yet, touch wood.',
    ],
    current: [
      'What database is behind {proj}?',
      'Where does {proj} store its records?',
      "Which engine holds {p}'s {proj} data?",
      "What's {proj} built on, storage-wise?",
      'Remind me what {p} uses to persist {proj}?',
    ],
    before: [
      'Which database did {proj} use earlier, ahead of {new}?',
      "What held {proj}'s data previously, pre-{new}?",
      "What was {p}'s old store for {proj}, the one {new} took over from?",
    ],
    when: [
      'Since when has {proj} been on {v}?',
      'What date did {proj} go live on {v}?',
      'How long ago did {p} point {proj} at {v}, which day?',
    ],
    at: ["{date}, which database held {proj}'s data?", "What store was {p}'s {proj} on {date}?"],
    aside: [
      'A {v} webinar is on tomorrow if anyone cares.',
      'Someone on the bus was reading a {v} book. Nerd spotted.',
      'The {v} docs site is down again.',
    ],
    reaction: [
      "{p}, how's {proj} holding up on {v}?",
      '{v} for {proj}, interesting choice {p}.',
      '{p} did {v} make {proj} any faster?',
    ],
  },
  hobby: {
    values: ['sailing', 'woodworking', 'painting', 'gardening', 'skating', 'judo', 'photography', 'volleyball'],
    state: [
      'Spent Saturday on {v} again, lost track of time completely.',
      "Bought more {v} stuff I don't need, as one does.",
      'Weekend plan: {v}, a nap, repeat.',
      'My {v} group meets at eight, so no late nights on Fridays.',
    ],
    change: [
      'Sold the {old} kit last month. Found {v} instead and I am a bit obsessed.',
      "Haven't done {old} since spring; {v} has my Saturdays.",
      'Sorry, said {old} earlier by mistake, it is {v} that eats my weekends.',
      'The {v} class I tried once is a weekly thing for me. The {old} gear is in the attic.',
    ],
    told: [
      "{p} gave up on {old}, apparently; it's {v} every weekend with them.",
      "{p} brought {v} photos to dinner, {old} didn't come up once.",
      "Guess who's into {v}? {p}! The {old} phase is over.",
    ],
    followUp: [
      'My instructor says I have a knack for it.',
      'Could happily do it every day, honestly.',
      'Already booked the next three sessions of it.',
    ],
    current: [
      'How does {p} spend weekends?',
      "What's {p}'s weekend thing?",
      'What hobby is {p} into lately?',
      'What keeps {p} busy on Saturdays?',
      'What does {p} do for fun?',
    ],
    before: [
      'Which hobby did {p} have earlier, ahead of {new}?',
      'What did {p} use to do for fun, pre-{new}?',
      "What was {p}'s old weekend thing, the one {new} took over from?",
    ],
    when: [
      'Since when has {p} done {v}?',
      'What date did {p} get going with {v}?',
      'How long ago did {p} first try {v}, which day?',
    ],
    at: ['{date}, what did {p} do for fun?', 'What hobby kept {p} busy {date}?'],
    aside: [
      'The community hall has a {v} open day on Sunday.',
      'My nephew wants a {v} birthday party, whatever that means.',
      'Read an article about {v} being good for your back.',
    ],
    reaction: [
      '{p}, you have to show me your {v} stuff.',
      '{v}? Never pictured that, {p}. Love it.',
      '{p} is {v} expensive to start?',
    ],
  },
};

/** The speakers' own holding asides in this phrasing ({v}: the value that holds, {x}: another, {o}: another). */
export const FIFTH_HOLDING_ASIDES: readonly string[] = [
  'Everyone at the party was on about {x}. Not tempted; {v} does what I need.',
  'Read a whole thread on {x} versus {v} last night, came out of it happy with {v}.',
  '{o} dared me to give {x} a go. Hard pass, {v} and I are fine.',
  'Ask me again in a year about {x}. Today, {v}.',
  '{o} and I grabbed tickets for a {v} event next month.',
  'Somebody in my building is into {v} stuff too, small world.',
  'The {v} account posted a meme about our team, {o} sent it round.',
  '{o} keeps confusing {v} and {x}, which is funny every time.',
];
