/// The word sets Trove ships, written for it. Each has at least 60 words; one is emoji.
public enum BuiltInWordSets {
    public static let all: [WordSet] = [classics, nature, city, love, emoji]

    public static func find(id: String) -> WordSet? { all.first { $0.id == id } }

    static func set(_ id: String, _ name: String, _ words: String) -> WordSet {
        WordSet(id: id, name: name, builtIn: true, words: words.split(separator: " ").map(String.init))
    }

    public static let classics = set(
        "classics", "Fridge classics",
        """
        I you we they she he it my your our the a an and but or if when while because so not \
        is am are was were be have had do will can must may love dream night day light dark sweet \
        bitter heart moon sun sea sky rain fire smoke stone gold silver quiet loud slow fast soft \
        whisper sing dance run fall rise break hold forget remember always never almost again \
        only still here there away home lost found tomorrow yesterday -s -ing -ed -ly like
        """)

    public static let nature = set(
        "nature", "Nature",
        """
        river mountain forest meadow leaf leaves root branch blossom petal seed moss fern pine oak \
        willow birch stream pond lake tide wave shore sand pebble cliff valley hill field frost \
        snow ice mist fog dew thunder storm wind breeze cloud dawn dusk twilight shadow sunlight \
        moonlight star stars owl fox deer wolf sparrow heron bee honey green golden wild still \
        deep bloom grow drift wander rest shiver glow fade under over through beneath among
        """)

    public static let city = set(
        "city", "City nights",
        """
        street avenue corner alley rooftop subway train bus taxi bridge tower neon window door \
        stair elevator cafe bar diner jukebox radio siren traffic crowd stranger neighbour rent \
        coffee cigarette rain puddle umbrella lamp sign billboard concrete glass steel midnight \
        late early morning shift work wait hurry walk talk laugh lonely busy electric humming \
        broken shining tired awake asleep downtown uptown across behind between above below \
        last first every nobody everybody somebody
        """)

    public static let love = set(
        "love", "Love & longing",
        """
        kiss touch hand hands lips eyes skin hair breath heartbeat promise secret letter rose \
        ribbon ring wedding waltz honey darling dear beloved mine yours ours together apart \
        forever once maybe yes no please stay leave come go wish want need miss ache burn melt \
        blush tremble hold hug linger tender gentle fierce true false warm cold close far near \
        alone lonely sweetheart moonlit candle wine song slow sudden softly
        """)

    public static let emoji = set(
        "emoji", "Emoji & friends",
        """
        😀 😂 😍 🥰 😎 🤔 😴 😭 😡 🥳 🤯 😇 👋 👏 🙏 💪 👀 ❤️ 💔 ✨ 🔥 🌈 ☀️ 🌙 ⭐ ☁️ 🌧️ ❄️ 🌊 🌸 🌻 🍀 \
        🍕 🍩 ☕ 🍷 🎂 🎉 🎈 🎵 🎸 📚 ✏️ 💡 🔑 🏠 🚲 🚀 ✈️ 🗺️ ⏰ 💤 🐱 🐶 🦊 🐝 🦋 🐢 \
        and or but with without love you me we today tonight
        """)
}
