<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr_FR">
<context>
    <name>Autostart</name>
    <message>
        <source>Cannot create the folder %1</source>
        <translation>Impossible de créer le dossier %1</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>Impossible d’écrire %1&#xa0;: %2</translation>
    </message>
    <message>
        <source>Cannot remove %1: %2</source>
        <translation>Impossible de supprimer %1&#xa0;: %2</translation>
    </message>
    <message>
        <source>Cannot change %1</source>
        <translation>Impossible de modifier %1</translation>
    </message>
    <message>
        <source>A program path with a line break cannot start with the session</source>
        <translation>Un chemin de programme contenant un saut de ligne ne peut pas démarrer avec la session</translation>
    </message>
</context>
<context>
    <name>Format</name>
    <message>
        <source>%1 GiB</source>
        <translation>%1 Gio</translation>
    </message>
    <message>
        <source>%1 MiB</source>
        <translation>%1 Mio</translation>
    </message>
    <message>
        <source>%1 KiB</source>
        <translation>%1 Kio</translation>
    </message>
    <message>
        <source>%1 B</source>
        <translation>%1 o</translation>
    </message>
    <message>
        <source>%1 / %2 GiB</source>
        <translation>%1 / %2 Gio</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 min %2 s</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 h %2 min</translation>
    </message>
    <message>
        <source>%1 d %2 h</source>
        <translation>%1 j %2 h</translation>
    </message>
    <message>
        <source>%1 PFLOP</source>
        <translation>%1 PFLOP</translation>
    </message>
    <message>
        <source>%1 TFLOP</source>
        <translation>%1 TFLOP</translation>
    </message>
    <message>
        <source>%1 TFLOP/s</source>
        <translation>%1 TFLOP/s</translation>
    </message>
    <message>
        <source>%1 GFLOP/s</source>
        <translation>%1 GFLOP/s</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1&#xa0;%</translation>
    </message>
    <message>
        <source>%1 °C</source>
        <translation>%1 °C</translation>
    </message>
    <message>
        <source>%1 W of %2 W</source>
        <translation>%1 W sur %2 W</translation>
    </message>
    <message>
        <source>%1 W</source>
        <translation>%1 W</translation>
    </message>
    <message>
        <source>Not running</source>
        <translation>À l’arrêt</translation>
    </message>
    <message>
        <source>Starting</source>
        <translation>Démarrage</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>En pause</translation>
    </message>
    <message>
        <source>Contributing</source>
        <translation>Contribue</translation>
    </message>
    <message>
        <source>Stopping</source>
        <translation>Arrêt en cours</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Échec</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>Inconnu</translation>
    </message>
    <message>
        <source>%1 GFLOP</source>
        <translation>%1 GFLOP</translation>
    </message>
    <message>
        <source>block %1 of %2</source>
        <translation>bloc %1 sur %2</translation>
    </message>
    <message>
        <source>blocks %1–%2 of %3</source>
        <translation>blocs %1 à %2 sur %3</translation>
    </message>
    <message>
        <source>%1 samples/s</source>
        <translation>%1 échantillons/s</translation>
    </message>
</context>
<context>
    <name>Reasons</name>
    <message>
        <source>Measuring this PC&apos;s compute speed</source>
        <translation>Mesure de la vitesse de calcul de ce PC</translation>
    </message>
    <message>
        <source>Paused: press Contribute to start</source>
        <translation>En pause&#xa0;: cliquez sur Contribuer pour commencer</translation>
    </message>
    <message>
        <source>Slowed: %1</source>
        <translation>Ralenti&#xa0;: %1</translation>
    </message>
    <message>
        <source>Paused: %1</source>
        <translation>En pause&#xa0;: %1</translation>
    </message>
    <message>
        <source>Training stage %1 of %2 in pipeline %3 (%4)</source>
        <translation>Entraîne l’étage %1 sur %2 du pipeline %3 (%4)</translation>
    </message>
    <message>
        <source>Volunteer of job “%1”</source>
        <translation>Bénévole de la tâche «&#xa0;%1&#xa0;»</translation>
    </message>
    <message>
        <source>Volunteer of job “%1”: %2</source>
        <translation>Bénévole de la tâche «&#xa0;%1&#xa0;»&#xa0;: %2</translation>
    </message>
    <message>
        <source>Benchmark: matrix products on %1</source>
        <translation>Banc d’essai&#xa0;: produits de matrices sur %1</translation>
    </message>
    <message>
        <source>Stopping: saving state</source>
        <translation>Arrêt&#xa0;: enregistrement de l’état</translation>
    </message>
    <message>
        <source>Cannot start: %1</source>
        <translation>Démarrage impossible&#xa0;: %1</translation>
    </message>
    <message>
        <source>Work failed: %1</source>
        <translation>Échec du travail&#xa0;: %1</translation>
    </message>
    <message>
        <source>snoozed until %1</source>
        <translation>suspendu jusqu’à %1</translation>
    </message>
    <message>
        <source>outside the hours of the schedule</source>
        <translation>hors des heures du calendrier</translation>
    </message>
    <message>
        <source>on battery</source>
        <translation>sur batterie</translation>
    </message>
    <message>
        <source>%1 is running</source>
        <translation>%1 est en cours d’exécution</translation>
    </message>
    <message>
        <source>a full-screen application runs</source>
        <translation>une application en plein écran est ouverte</translation>
    </message>
    <message>
        <source>the PC is in use</source>
        <translation>le PC est utilisé</translation>
    </message>
    <message>
        <source>the PC is idle and computing while idle is off</source>
        <translation>le PC est inactif et le calcul pendant l’inactivité est désactivé</translation>
    </message>
    <message>
        <source>the PC is in use and the GPU is not used then</source>
        <translation>le PC est utilisé et le GPU n’est alors pas employé</translation>
    </message>
    <message>
        <source>GPU at %1, above %2</source>
        <translation>GPU à %1, au-dessus de %2</translation>
    </message>
    <message>
        <source>other programs use %1 of the CPU (resumes below %2)</source>
        <translation>d’autres programmes utilisent %1 du processeur (reprise sous %2)</translation>
    </message>
    <message>
        <source>other programs use %1 of the CPU</source>
        <translation>d’autres programmes utilisent %1 du processeur</translation>
    </message>
    <message>
        <source>memory %1, more than the %2 allowed</source>
        <translation>mémoire %1, plus que les %2 autorisés</translation>
    </message>
    <message>
        <source>the PC is idle</source>
        <translation>le PC est inactif</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n core(s)</source>
        <translation>
            <numerusform>%1 sur %n cœur</numerusform>
            <numerusform>%1 sur %n cœurs</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 CPU time</source>
        <translation>%1 du temps processeur</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1&#xa0;: %2</translation>
    </message>
    <message>
        <source>, </source>
        <translation>, </translation>
    </message>
    <message>
        <source>connecting to the coordinator</source>
        <translation>connexion au coordinateur</translation>
    </message>
    <message>
        <source>connected (version %1)</source>
        <translation>connecté (version %1)</translation>
    </message>
    <message>
        <source>unreachable: %1</source>
        <translation>injoignable&#xa0;: %1</translation>
    </message>
    <message>
        <source>joined job “%1”</source>
        <translation>a rejoint la tâche «&#xa0;%1&#xa0;»</translation>
    </message>
    <message>
        <source>refused this PC: %1</source>
        <translation>a refusé ce PC&#xa0;: %1</translation>
    </message>
    <message>
        <source>banned this PC from the job: %1</source>
        <translation>a banni ce PC de la tâche&#xa0;: %1</translation>
    </message>
    <message>
        <source>the coordinator runs no job</source>
        <translation>le coordinateur n’exécute aucune tâche</translation>
    </message>
    <message>
        <source>the coordinator runs another job (“%1”)</source>
        <translation>le coordinateur exécute une autre tâche (« %1 »)</translation>
    </message>
    <message>
        <source>the job is invite-only and this invite is not valid</source>
        <translation>la tâche est sur invitation et cette invitation n’est pas valide</translation>
    </message>
    <message>
        <source>this invite has expired; ask the job&apos;s owner for a new one</source>
        <translation>cette invitation a expiré ; demandez-en une nouvelle au propriétaire de la tâche</translation>
    </message>
    <message>
        <source>the job&apos;s owner revoked this invite</source>
        <translation>le propriétaire de la tâche a révoqué cette invitation</translation>
    </message>
    <message>
        <source>this PC&apos;s addresses are not TCP addresses</source>
        <translation>les adresses de ce PC ne sont pas des adresses TCP</translation>
    </message>
    <message>
        <source>this PC&apos;s measured speed, memory or network look implausible</source>
        <translation>la vitesse, la mémoire ou le réseau mesurés de ce PC semblent invraisemblables</translation>
    </message>
    <message>
        <source>a ring partner proved, by its own signatures, that it handed the ring false averaged values</source>
        <translation>un partenaire d&apos;anneau a prouvé, par ses propres signatures, qu&apos;il a transmis à l&apos;anneau de fausses valeurs moyennées</translation>
    </message>
    <message numerus="yes">
        <source>%1 of its %n ring partner(s) reject its averaging contributions</source>
        <translation>
            <numerusform>%1 de son %n partenaire d’anneau rejette ses contributions à la moyenne</numerusform>
            <numerusform>%1 de ses %n partenaires d’anneau rejettent ses contributions à la moyenne</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of the %n stage(s) it sends to caught its activations wrong in spot-checks</source>
        <translation>
            <numerusform>%1 sur %n étage auquel il envoie a détecté des activations erronées lors des vérifications</numerusform>
            <numerusform>%1 des %n étages auxquels il envoie ont détecté des activations erronées lors des vérifications</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of the %n stage(s) it returns gradients to caught its gradients wrong in spot-checks</source>
        <translation>
            <numerusform>%1 sur %n étage auquel il renvoie des gradients a détecté des gradients erronés lors des vérifications</numerusform>
            <numerusform>%1 des %n étages auxquels il renvoie des gradients ont détecté des gradients erronés lors des vérifications</numerusform>
        </translation>
    </message>
    <message>
        <source>a spare: its pipeline is faster without this PC, which waits to fill a seat that falls empty</source>
        <translation>en réserve : son pipeline est plus rapide sans ce PC, qui attend qu’une place se libère</translation>
    </message>
    <message>
        <source>every pipeline of its bandwidth tier already has one PC per block</source>
        <translation>chaque pipeline de son niveau de bande passante a déjà un PC par bloc</translation>
    </message>
    <message>
        <source>the volunteers together do not hold the model yet (%1)</source>
        <translation>les bénévoles ne peuvent pas encore contenir le modèle ensemble (%1)</translation>
    </message>
    <message>
        <source>it joined after the plan was made</source>
        <translation>il a rejoint après l’établissement du plan</translation>
    </message>
    <message>
        <source>unreachable: training on with the last plan</source>
        <translation>injoignable&#xa0;: l’entraînement continue avec le dernier plan</translation>
    </message>
    <message>
        <source>pipeline %1, stage %2</source>
        <translation>pipeline %1, étage %2</translation>
    </message>
    <message>
        <source>waiting for a plan</source>
        <translation>en attente d’un plan</translation>
    </message>
    <message>
        <source>not in the plan: %1</source>
        <translation>hors du plan&#xa0;: %1</translation>
    </message>
    <message>
        <source>re-planning</source>
        <translation>nouvelle planification</translation>
    </message>
    <message>
        <source>joining again (the coordinator restarted)</source>
        <translation>nouvelle adhésion (le coordinateur a redémarré)</translation>
    </message>
    <message>
        <source>fetching the job&apos;s data: %1 of %2</source>
        <translation>récupération des données de la tâche : %1 sur %2</translation>
    </message>
    <message>
        <source>no pipeline yet: %1</source>
        <translation>pas encore de pipeline : %1</translation>
    </message>
    <message>
        <source>the coordinator ignored this PC&apos;s report</source>
        <translation>le coordinateur a ignoré le rapport de ce PC</translation>
    </message>
    <message>
        <source>the coordinator cannot check invites (%1)</source>
        <translation>le coordinateur ne peut pas vérifier les invitations (%1)</translation>
    </message>
    <message>
        <source>no volunteer holds the job&apos;s data yet</source>
        <translation>aucun volontaire ne détient encore les données de la tâche</translation>
    </message>
    <message>
        <source>no other PC can reach this one yet, and no relay carries it</source>
        <translation>aucun autre PC ne peut encore joindre celui-ci, et aucun relais ne le transporte</translation>
    </message>
    <message>
        <source>input idleness</source>
        <translation>inactivité des entrées</translation>
    </message>
    <message>
        <source>full-screen</source>
        <translation>plein écran</translation>
    </message>
    <message>
        <source>battery</source>
        <translation>batterie</translation>
    </message>
    <message>
        <source>programs</source>
        <translation>programmes</translation>
    </message>
    <message>
        <source>CPU load</source>
        <translation>charge du processeur</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>memory</source>
        <translation>mémoire</translation>
    </message>
    <message>
        <source>no input for %1</source>
        <translation>aucune saisie depuis %1</translation>
    </message>
    <message>
        <source>nothing reports it here: the PC counts as in use</source>
        <translation>rien ne la signale ici&#xa0;: le PC est considéré comme utilisé</translation>
    </message>
    <message>
        <source>no desktop session reports it</source>
        <translation>aucune session de bureau ne le signale</translation>
    </message>
    <message>
        <source>no full-screen application</source>
        <translation>aucune application en plein écran</translation>
    </message>
    <message>
        <source>on mains power</source>
        <translation>sur secteur</translation>
    </message>
    <message>
        <source>no programs listed</source>
        <translation>aucun programme indiqué</translation>
    </message>
    <message>
        <source>running: %1</source>
        <translation>en cours&#xa0;: %1</translation>
    </message>
    <message numerus="yes">
        <source>none of the %n listed program(s) runs</source>
        <translation>
            <numerusform>%n programme indiqué, il ne tourne pas</numerusform>
            <numerusform>aucun des %n programmes indiqués ne tourne</numerusform>
        </translation>
    </message>
    <message>
        <source>other programs %1</source>
        <translation>autres programmes %1</translation>
    </message>
    <message>
        <source>hottest GPU %1</source>
        <translation>GPU le plus chaud %1</translation>
    </message>
    <message>
        <source>%1 resident</source>
        <translation>%1 résidents</translation>
    </message>
    <message>
        <source>Compute while I use the PC</source>
        <translation>Calculer pendant que j’utilise le PC</translation>
    </message>
    <message>
        <source>Compute while the PC is idle</source>
        <translation>Calculer quand le PC est inactif</translation>
    </message>
    <message>
        <source>CPU cores</source>
        <translation>Cœurs du processeur</translation>
    </message>
    <message>
        <source>CPU time</source>
        <translation>Temps processeur</translation>
    </message>
    <message>
        <source>Use the GPU</source>
        <translation>Utiliser le GPU</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Mémoire</translation>
    </message>
    <message>
        <source>The PC is idle after no input for</source>
        <translation>Le PC est inactif après une absence de saisie de</translation>
    </message>
    <message>
        <source>Pause while other programs use more CPU than</source>
        <translation>Mettre en pause quand d’autres programmes utilisent plus de processeur que</translation>
    </message>
    <message>
        <source>Pause on battery</source>
        <translation>Mettre en pause sur batterie</translation>
    </message>
    <message>
        <source>Compute only at these times (empty: any time)</source>
        <translation>Calculer seulement à ces heures (vide&#xa0;: à tout moment)</translation>
    </message>
    <message>
        <source>Upload at most</source>
        <translation>Envoyer au plus</translation>
    </message>
    <message>
        <source>Download at most</source>
        <translation>Recevoir au plus</translation>
    </message>
    <message>
        <source>Pause while a full-screen application runs</source>
        <translation>Mettre en pause pendant qu’une application est en plein écran</translation>
    </message>
    <message>
        <source>Pause while these programs run</source>
        <translation>Mettre en pause pendant que ces programmes tournent</translation>
    </message>
    <message>
        <source>Pause the GPU above</source>
        <translation>Mettre le GPU en pause au-dessus de</translation>
    </message>
    <message>
        <source>On pause, finish the micro-batches already started (peers see a clean stop)</source>
        <translation>À la pause, terminer les micro-lots déjà commencés (les pairs voient un arrêt propre)</translation>
    </message>
    <message>
        <source>% of cores</source>
        <translation>% des cœurs</translation>
    </message>
    <message>
        <source>% of the time</source>
        <translation>% du temps</translation>
    </message>
    <message>
        <source>% of RAM</source>
        <translation>% de la RAM</translation>
    </message>
    <message>
        <source>min</source>
        <translation>min</translation>
    </message>
    <message>
        <source>% (0: never)</source>
        <translation>% (0&#xa0;: jamais)</translation>
    </message>
    <message>
        <source>KiB/s (0: unlimited)</source>
        <translation>Kio/s (0&#xa0;: illimité)</translation>
    </message>
    <message>
        <source>°C (0: no limit)</source>
        <translation>°C (0&#xa0;: aucune limite)</translation>
    </message>
    <message>
        <source>no NVIDIA driver</source>
        <translation>pas de pilote NVIDIA</translation>
    </message>
    <message>
        <source>the NVIDIA driver&apos;s library is too old</source>
        <translation>la bibliothèque du pilote NVIDIA est trop ancienne</translation>
    </message>
    <message>
        <source>the NVIDIA driver did not start (is it loaded?)</source>
        <translation>le pilote NVIDIA n’a pas démarré (est-il chargé&#xa0;?)</translation>
    </message>
    <message>
        <source>the NVIDIA driver reports no GPU</source>
        <translation>le pilote NVIDIA ne signale aucun GPU</translation>
    </message>
    <message numerus="yes">
        <source>%n NVIDIA GPU(s)</source>
        <translation>
            <numerusform>%n GPU NVIDIA</numerusform>
            <numerusform>%n GPU NVIDIA</numerusform>
        </translation>
    </message>
    <message>
        <source>Reached on this PC only: the swarm runs here</source>
        <translation>Joignable sur ce PC seulement : l’essaim tourne ici</translation>
    </message>
    <message>
        <source>Reached directly at %1</source>
        <translation>Joignable directement à %1</translation>
    </message>
    <message>
        <source>Reached through the router&apos;s port mapping (%1) at %2</source>
        <translation>Joignable via la redirection de ports du routeur (%1) à %2</translation>
    </message>
    <message>
        <source>Reached through a relay at %1: peers&apos; traffic passes it encrypted</source>
        <translation>Joignable via un relais à %1 : le trafic des pairs le traverse chiffré</translation>
    </message>
    <message>
        <source>Reached by connection reversal: this PC dials its neighbours itself</source>
        <translation>Joignable par inversion de connexion : ce PC contacte lui-même ses voisins</translation>
    </message>
    <message>
        <source>Not reachable from the internet: waiting for a relay to carry this PC</source>
        <translation>Injoignable depuis Internet : en attente d&apos;un relais pour ce PC</translation>
    </message>
    <message>
        <source>Reached by connection reversal (%1): this PC dials its neighbours itself</source>
        <translation>Joignable par inversion de connexion (%1) : ce PC contacte lui-même ses voisins</translation>
    </message>
    <message>
        <source>Not reachable from the internet (%1): waiting for a relay to carry this PC</source>
        <translation>Injoignable depuis Internet (%1) : en attente d&apos;un relais pour ce PC</translation>
    </message>
    <message numerus="yes">
        <source>the job admits at most %n volunteer(s) from one address, and already has them from %1</source>
        <translation>
            <numerusform>la tâche admet au plus %n volontaire depuis une adresse, et l’a déjà depuis %1</numerusform>
            <numerusform>la tâche admet au plus %n volontaires depuis une adresse, et les a déjà depuis %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>the job admits at most %n volunteer(s) from one network, and already has them from %1</source>
        <translation>
            <numerusform>la tâche admet au plus %n volontaire depuis un réseau, et l’a déjà depuis %1</numerusform>
            <numerusform>la tâche admet au plus %n volontaires depuis un réseau, et les a déjà depuis %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>the job asks each join for a proof of work of %n bit(s), and this one carried none</source>
        <translation>
            <numerusform>la tâche demande à chaque adhésion une preuve de travail de %n bit, et celle-ci n’en portait aucune</numerusform>
            <numerusform>la tâche demande à chaque adhésion une preuve de travail de %n bits, et celle-ci n’en portait aucune</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>this join&apos;s proof of work gives %1 of the %n bit(s) the job asks for</source>
        <translation>
            <numerusform>la preuve de travail de cette adhésion donne %1 du %n bit que demande la tâche</numerusform>
            <numerusform>la preuve de travail de cette adhésion donne %1 des %n bits que demande la tâche</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Rookery: lend this PC to a swarm that trains a neural network together.</source>
        <translation>Rookery&#xa0;: prêtez ce PC à un essaim qui entraîne ensemble un réseau de neurones.</translation>
    </message>
    <message>
        <source>Folder of rookery-node&apos;s control sockets (default: $XDG_RUNTIME_DIR/rookery).</source>
        <translation>Dossier des sockets de contrôle de rookery-node (par défaut&#xa0;: $XDG_RUNTIME_DIR/rookery).</translation>
    </message>
    <message>
        <source>The rookery-node program to start when none runs.</source>
        <translation>Le programme rookery-node à lancer quand aucun ne tourne.</translation>
    </message>
    <message>
        <source>Start in the tray, without opening the window.</source>
        <translation>Démarrer dans la zone de notification, sans ouvrir la fenêtre.</translation>
    </message>
    <message>
        <source>Contribute at once: ask rookery-node to contribute as soon as it answers (starting it when none runs).</source>
        <translation>Contribuer tout de suite&#xa0;: demander à rookery-node de contribuer dès qu’il répond (en le lançant si aucun ne tourne).</translation>
    </message>
    <message>
        <source>Light or dark colours, or those of the desktop (default: the appearance/colours setting, else system).</source>
        <translation>Couleurs claires ou sombres, ou celles du bureau (par défaut&#xa0;: le réglage appearance/colours, sinon system).</translation>
    </message>
    <message>
        <source>Rookery could not snooze</source>
        <translation>Rookery n’a pas pu se suspendre</translation>
    </message>
    <message>
        <source>An invite link to join (rookery://join?…): Rookery offers to join its swarm.</source>
        <translation>Un lien d’invitation (rookery://join?…)&#xa0;: Rookery propose de rejoindre son essaim.</translation>
    </message>
</context>
<context>
    <name>rookery::ui::ContributionCard</name>
    <message>
        <source>%1 per day</source>
        <translation>%1 par jour</translation>
    </message>
    <message>
        <source>%1 TFLOP</source>
        <translation>%1 TFLOP</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 h</translation>
    </message>
    <message>
        <source>Your contribution</source>
        <translation>Votre contribution</translation>
    </message>
    <message>
        <source>Credit</source>
        <translation>Crédit</translation>
    </message>
    <message>
        <source>credits</source>
        <translation>crédits</translation>
    </message>
    <message>
        <source>Recent average credit</source>
        <translation>Crédit moyen récent</translation>
    </message>
    <message>
        <source>Recent average credit: credits per day, averaged so that credit earned a week ago counts half (as BOINC computes it)</source>
        <translation>Crédit moyen récent&#xa0;: crédits par jour, moyennés de sorte que le crédit gagné il y a une semaine compte pour moitié (comme le calcule BOINC)</translation>
    </message>
    <message>
        <source>Ledger status</source>
        <translation>État du registre</translation>
    </message>
    <message>
        <source>Samples processed</source>
        <translation>Échantillons traités</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>Calcul</translation>
    </message>
    <message>
        <source>Hours contributed</source>
        <translation>Heures de contribution</translation>
    </message>
    <message>
        <source>Data sent</source>
        <translation>Données envoyées</translation>
    </message>
    <message>
        <source>Data received</source>
        <translation>Données reçues</translation>
    </message>
    <message>
        <source>Confirmed by the swarm</source>
        <translation>Confirmé par l’essaim</translation>
    </message>
    <message>
        <source>The samples of this PC&apos;s work that the stages receiving it confirmed to the coordinator, and the credit they are worth: the run credits confirmed work only</source>
        <translation>Les échantillons du travail de ce PC que les étages qui l’ont reçu ont confirmés au coordinateur, et le crédit qu’ils valent : l’entraînement ne crédite que le travail confirmé</translation>
    </message>
    <message>
        <source>%1 samples · %2 credits</source>
        <translation>%1 échantillons · %2 crédits</translation>
    </message>
    <message>
        <source>Time this PC spent computing for the swarm</source>
        <translation>Temps que ce PC a passé à calculer pour l’essaim</translation>
    </message>
    <message>
        <source>Floating-point operations of the micro-batches this PC trained (1 TFLOP = 10¹² operations; 1 credit = 0.432 TFLOP)</source>
        <translation>Opérations en virgule flottante des micro-lots entraînés par ce PC (1 TFLOP = 10¹² opérations&#xa0;; 1 crédit = 0,432 TFLOP)</translation>
    </message>
    <message>
        <source>Per day</source>
        <translation>Par jour</translation>
    </message>
    <message>
        <source>Show credit per day</source>
        <translation>Afficher le crédit par jour</translation>
    </message>
    <message>
        <source>Per hour</source>
        <translation>Par heure</translation>
    </message>
    <message>
        <source>Show credit per hour</source>
        <translation>Afficher le crédit par heure</translation>
    </message>
    <message>
        <source>%1: %2 credits, %3 samples</source>
        <translation>%1&#xa0;: %2 crédits, %3 échantillons</translation>
    </message>
    <message>
        <source>Credit chart</source>
        <translation>Graphique des crédits</translation>
    </message>
    <message>
        <source>History not available: %1</source>
        <translation>Historique indisponible&#xa0;: %1</translation>
    </message>
    <message>
        <source>This rookery-node keeps no ledger</source>
        <translation>Ce rookery-node ne tient pas de registre</translation>
    </message>
    <message>
        <source>Recent average: %1</source>
        <translation>Moyenne récente&#xa0;: %1</translation>
    </message>
    <message numerus="yes">
        <source>Not saved yet (%n unit(s) waiting): %1</source>
        <translation>
            <numerusform>Pas encore enregistré (%n unité en attente)&#xa0;: %1</numerusform>
            <numerusform>Pas encore enregistré (%n unités en attente)&#xa0;: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Shown once rookery-node answers</source>
        <translation>Affiché dès que rookery-node répond</translation>
    </message>
    <message>
        <source>Your contribution is shown once rookery-node answers.</source>
        <translation>Votre contribution s’affiche dès que rookery-node répond.</translation>
    </message>
    <message>
        <source>This rookery-node keeps no ledger, so there is no history to show.</source>
        <translation>Ce rookery-node ne tient pas de registre&#xa0;: il n’y a pas d’historique à afficher.</translation>
    </message>
    <message>
        <source>Loading the history…</source>
        <translation>Chargement de l’historique…</translation>
    </message>
    <message>
        <source>Nothing contributed yet. This PC runs a local benchmark, which earns no credit: credit comes with each micro-batch it trains for a pipeline.</source>
        <translation>Aucune contribution pour l’instant. Ce PC exécute un test local, qui ne rapporte aucun crédit&#xa0;: le crédit vient avec chaque micro-lot qu’il entraîne pour un pipeline.</translation>
    </message>
    <message>
        <source>Nothing contributed yet: each micro-batch this PC trains earns credit (1 credit = 432 GFLOP, as in BOINC).</source>
        <translation>Aucune contribution pour l’instant&#xa0;: chaque micro-lot que ce PC entraîne rapporte du crédit (1 crédit = 432 GFLOP, comme dans BOINC).</translation>
    </message>
    <message numerus="yes">
        <source>Credit per day, the last %n day(s)</source>
        <translation>
            <numerusform>Crédit par jour, sur %n jour</numerusform>
            <numerusform>Crédit par jour, sur les %n derniers jours</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Credit per hour, the last %n hour(s)</source>
        <translation>
            <numerusform>Crédit par heure, sur %n heure</numerusform>
            <numerusform>Crédit par heure, sur les %n dernières heures</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1&#xa0;: %2</translation>
    </message>
    <message>
        <source>%1: %2 credits in all, most on %3 (%4). %5</source>
        <translation>%1&#xa0;: %2 crédits au total, le maximum à %3 (%4). %5</translation>
    </message>
    <message>
        <source>Credit: %1</source>
        <translation>Crédit&#xa0;: %1</translation>
    </message>
</context>
<context>
    <name>rookery::ui::CoordinatorProbe</name>
    <message>
        <source>The coordinator at %1 answered (Rookery %2, %3 ms).</source>
        <translation>Le coordinateur à l’adresse %1 a répondu (Rookery %2, %3 ms).</translation>
    </message>
    <message>
        <source>Cannot reach the coordinator at %1. Check the address and your internet connection; the coordinator may also be down or behind a firewall.</source>
        <translation>Impossible de joindre le coordinateur à l’adresse %1. Vérifiez l’adresse et votre connexion à Internet&#xa0;; le coordinateur est peut-être aussi arrêté ou derrière un pare-feu.</translation>
    </message>
    <message>
        <source>Something answers at %1, but not the coordinator this link names: the secure handshake failed. Ask the job owner for a new invite link.</source>
        <translation>Quelque chose répond à l’adresse %1, mais pas le coordinateur désigné par ce lien&#xa0;: l’établissement de la connexion sécurisée a échoué. Demandez un nouveau lien d’invitation au propriétaire de la tâche.</translation>
    </message>
    <message>
        <source>The coordinator at %1 refused this PC: it admits only volunteers on its list. Ask the job owner to add this PC, or for another invite.</source>
        <translation>Le coordinateur à l’adresse %1 a refusé ce PC&#xa0;: il n’admet que les bénévoles de sa liste. Demandez au propriétaire de la tâche d’ajouter ce PC, ou une autre invitation.</translation>
    </message>
    <message>
        <source>The coordinator at %1 refused: %2</source>
        <translation>Le coordinateur à l’adresse %1 a refusé&#xa0;: %2</translation>
    </message>
    <message>
        <source>The coordinator at %1 accepted the connection but did not answer. It may be overloaded; try again later.</source>
        <translation>Le coordinateur à l’adresse %1 a accepté la connexion mais n’a pas répondu. Il est peut-être surchargé&#xa0;; réessayez plus tard.</translation>
    </message>
    <message>
        <source>%1 is not a Rookery coordinator.</source>
        <translation>%1 n’est pas un coordinateur Rookery.</translation>
    </message>
    <message>
        <source>Could not contact the coordinator at %1: %2</source>
        <translation>Impossible de contacter le coordinateur à l’adresse %1&#xa0;: %2</translation>
    </message>
    <message>
        <source>The coordinator at %1 answers but runs no job yet. Ask the job owner when the job starts.</source>
        <translation>Le coordinateur à l’adresse %1 répond, mais n’exécute encore aucune tâche. Demandez au propriétaire de la tâche quand elle commence.</translation>
    </message>
    <message>
        <source>The coordinator at %1 runs the job “%2”, not “%3” as the link says. Ask the job owner for a new invite link.</source>
        <translation>Le coordinateur à l’adresse %1 exécute la tâche «&#xa0;%2&#xa0;», et non «&#xa0;%3&#xa0;» comme l’indique le lien. Demandez un nouveau lien d’invitation au propriétaire de la tâche.</translation>
    </message>
</context>
<context>
    <name>rookery::ui::DemoSwarm</name>
    <message>
        <source>rookery-node was not found</source>
        <translation>rookery-node est introuvable</translation>
    </message>
    <message>
        <source>rookery-coordinator was not found beside rookery-node</source>
        <translation>rookery-coordinator est introuvable à côté de rookery-node</translation>
    </message>
    <message>
        <source>the demo job (demo-job.json) was not found; set ROOKERY_DEMO_JOB</source>
        <translation>la tâche de démonstration (demo-job.json) est introuvable&#xa0;; définissez ROOKERY_DEMO_JOB</translation>
    </message>
    <message>
        <source>cannot create %1</source>
        <translation>impossible de créer %1</translation>
    </message>
    <message>
        <source>no free port on 127.0.0.1</source>
        <translation>aucun port libre sur 127.0.0.1</translation>
    </message>
    <message>
        <source>cannot write %1</source>
        <translation>impossible d’écrire %1</translation>
    </message>
    <message>
        <source>could not start %1</source>
        <translation>impossible de lancer %1</translation>
    </message>
    <message>
        <source>the demo coordinator did not start; see %1</source>
        <translation>le coordinateur de démonstration n’a pas démarré&#xa0;; consultez %1</translation>
    </message>
    <message>
        <source>the demo coordinator wrote no address to %1</source>
        <translation>le coordinateur de démonstration n’a écrit aucune adresse dans %1</translation>
    </message>
    <message>
        <source>%1 is not a job spec with an id</source>
        <translation>%1 n’est pas une description de tâche avec un identifiant</translation>
    </message>
    <message>
        <source>%1 could not size the demo job: %2</source>
        <translation>%1 n’a pas pu évaluer la mémoire nécessaire à la tâche de démonstration&#xa0;: %2</translation>
    </message>
</context>
<context>
    <name>rookery::ui::DeviceCard</name>
    <message>
        <source>Device</source>
        <translation>Appareil</translation>
    </message>
    <message>
        <source>Device name</source>
        <translation>Nom de l’appareil</translation>
    </message>
    <message>
        <source>GPU memory</source>
        <translation>Mémoire du GPU</translation>
    </message>
    <message>
        <source>Utilisation</source>
        <translation>Utilisation</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>Température</translation>
    </message>
    <message>
        <source>Power</source>
        <translation>Puissance</translation>
    </message>
    <message>
        <source>Processor</source>
        <translation>Processeur</translation>
    </message>
    <message>
        <source>Cores</source>
        <translation>Cœurs</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Mémoire</translation>
    </message>
    <message>
        <source>PC load</source>
        <translation>Charge du PC</translation>
    </message>
    <message>
        <source>Rookery&apos;s share</source>
        <translation>Part de Rookery</translation>
    </message>
    <message>
        <source>Math library</source>
        <translation>Bibliothèque mathématique</translation>
    </message>
    <message>
        <source>Measured speed</source>
        <translation>Vitesse mesurée</translation>
    </message>
    <message numerus="yes">
        <source>%n logical core(s)</source>
        <translation>
            <numerusform>%n cœur logique</numerusform>
            <numerusform>%n cœurs logiques</numerusform>
        </translation>
    </message>
    <message>
        <source>GPU · computes on %1</source>
        <translation>GPU · calcule sur %1</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message numerus="yes">
        <source>%n more GPU(s) in this PC</source>
        <translation>
            <numerusform>%n autre GPU dans ce PC</numerusform>
            <numerusform>%n autres GPU dans ce PC</numerusform>
        </translation>
    </message>
    <message>
        <source>CPU · computes on the processor</source>
        <translation>CPU · calcule sur le processeur</translation>
    </message>
    <message>
        <source>Unknown processor</source>
        <translation>Processeur inconnu</translation>
    </message>
    <message>
        <source>No GPU telemetry: %1</source>
        <translation>Pas de télémétrie GPU&#xa0;: %1</translation>
    </message>
    <message numerus="yes">
        <source>%1 · Rookery uses %n</source>
        <translation>
            <numerusform>%1 · Rookery en utilise %n</numerusform>
            <numerusform>%1 · Rookery en utilise %n</numerusform>
        </translation>
    </message>
    <message>
        <source>measuring…</source>
        <translation>mesure en cours…</translation>
    </message>
    <message>
        <source>Waiting for rookery-node</source>
        <translation>En attente de rookery-node</translation>
    </message>
    <message>
        <source>This PC</source>
        <translation>Ce PC</translation>
    </message>
    <message>
        <source>The device is shown once rookery-node answers.</source>
        <translation>L’appareil s’affiche dès que rookery-node répond.</translation>
    </message>
    <message>
        <source>Recent load</source>
        <translation>Charge récente</translation>
    </message>
    <message>
        <source>%1: now %2, highest %3</source>
        <translation>%1 : maintenant %2, au plus %3</translation>
    </message>
    <message>
        <source>%1 is not used for training</source>
        <translation>%1 n’est pas utilisé pour l’entraînement</translation>
    </message>
    <message>
        <source>%1 is not used for training: %2</source>
        <translation>%1 n’est pas utilisé pour l’entraînement : %2</translation>
    </message>
</context>
<context>
    <name>rookery::ui::FirstRunDialog</name>
    <message>
        <source>Welcome to Rookery</source>
        <translation>Bienvenue dans Rookery</translation>
    </message>
    <message>
        <source>Join a training swarm</source>
        <translation>Rejoindre un essaim d’entraînement</translation>
    </message>
    <message>
        <source>Rookery lends this PC to a swarm of volunteers who train a neural network together. Choose the swarm to join; you can pause or quit at any time.</source>
        <translation>Rookery prête ce PC à un essaim de bénévoles qui entraînent ensemble un réseau de neurones. Choisissez l’essaim à rejoindre&#xa0;; vous pouvez mettre en pause ou quitter à tout moment.</translation>
    </message>
    <message>
        <source>Join the &amp;demo swarm</source>
        <translation>Rejoindre l’essaim de &amp;démonstration</translation>
    </message>
    <message>
        <source>A small language model trained by a few volunteers on this PC: see Rookery at work within a minute.</source>
        <translation>Un petit modèle de langage entraîné par quelques bénévoles sur ce PC&#xa0;: voyez Rookery à l’œuvre en moins d’une minute.</translation>
    </message>
    <message>
        <source>Or paste an &amp;invite link from a job owner:</source>
        <translation>Ou collez un lien d’&amp;invitation reçu d’un propriétaire de tâche&#xa0;:</translation>
    </message>
    <message>
        <source>Paste the &amp;invite link a job owner gave you:</source>
        <translation>Collez le lien d’&amp;invitation que vous a donné le propriétaire de la tâche&#xa0;:</translation>
    </message>
    <message>
        <source>Invite link</source>
        <translation>Lien d’invitation</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>État</translation>
    </message>
    <message>
        <source>&amp;Join</source>
        <translation>&amp;Rejoindre</translation>
    </message>
    <message>
        <source>&amp;Not now</source>
        <translation>&amp;Pas maintenant</translation>
    </message>
    <message>
        <source>Rookery computes a local benchmark until this PC joins a swarm.</source>
        <translation>Rookery calcule un test local jusqu’à ce que ce PC rejoigne un essaim.</translation>
    </message>
    <message>
        <source>Job “%1” at coordinator %2.</source>
        <translation>Tâche «&#xa0;%1&#xa0;» auprès du coordinateur %2.</translation>
    </message>
    <message>
        <source>This is not a valid invite link: %1.</source>
        <translation>Ce n’est pas un lien d’invitation valide&#xa0;: %1.</translation>
    </message>
    <message>
        <source>Starting the demo swarm on this PC…</source>
        <translation>Démarrage de l’essaim de démonstration sur ce PC…</translation>
    </message>
    <message>
        <source>The demo swarm could not start: %1</source>
        <translation>L’essaim de démonstration n’a pas pu démarrer&#xa0;: %1</translation>
    </message>
    <message>
        <source>Contacting the coordinator at %1…</source>
        <translation>Contact du coordinateur à l’adresse %1…</translation>
    </message>
</context>
<context>
    <name>rookery::ui::InviteLink</name>
    <message>
        <source>the link names no coordinator</source>
        <translation>le lien n’indique aucun coordinateur</translation>
    </message>
    <message>
        <source>the coordinator must be a tcp://host:port address, not “%1”</source>
        <translation>le coordinateur doit être une adresse tcp://host:port, et non «&#xa0;%1&#xa0;»</translation>
    </message>
    <message>
        <source>“%1” is not a valid tcp://host:port address</source>
        <translation>«&#xa0;%1&#xa0;» n’est pas une adresse tcp://host:port valide</translation>
    </message>
    <message>
        <source>the coordinator&apos;s port must be between 1 and 65535, not %1</source>
        <translation>le port du coordinateur doit être compris entre 1 et 65535, et non %1</translation>
    </message>
    <message>
        <source>the link has no coordinator key</source>
        <translation>le lien ne contient pas la clé du coordinateur</translation>
    </message>
    <message>
        <source>the coordinator key must be 40 characters long, it has %1</source>
        <translation>la clé du coordinateur doit compter 40 caractères, elle en a %1</translation>
    </message>
    <message>
        <source>the coordinator key contains “%1”, which is not a Z85 character</source>
        <translation>la clé du coordinateur contient «&#xa0;%1&#xa0;», qui n’est pas un caractère Z85</translation>
    </message>
    <message>
        <source>the link names no job</source>
        <translation>le lien n’indique aucune tâche</translation>
    </message>
    <message>
        <source>the job id is longer than %1 characters</source>
        <translation>l’identifiant de la tâche dépasse %1 caractères</translation>
    </message>
    <message>
        <source>the job id may hold only letters, digits, &apos;.&apos;, &apos;-&apos; and &apos;_&apos;</source>
        <translation>l’identifiant de la tâche ne peut contenir que des lettres, des chiffres, &apos;.&apos;, &apos;-&apos; et &apos;_&apos;</translation>
    </message>
    <message>
        <source>paste an invite link</source>
        <translation>collez un lien d’invitation</translation>
    </message>
    <message>
        <source>the link is longer than %1 characters</source>
        <translation>le lien dépasse %1 caractères</translation>
    </message>
    <message>
        <source>an invite link starts with rookery://join?</source>
        <translation>un lien d’invitation commence par rookery://join?</translation>
    </message>
    <message>
        <source>“%1” in the link is not a name=value pair (is the key percent-encoded?)</source>
        <translation>«&#xa0;%1&#xa0;» dans le lien n’est pas une paire name=value (la clé est-elle encodée en pourcent&#xa0;?)</translation>
    </message>
    <message>
        <source>the link has an unknown part “%1” (is the key percent-encoded?)</source>
        <translation>le lien contient une partie inconnue «&#xa0;%1&#xa0;» (la clé est-elle encodée en pourcent&#xa0;?)</translation>
    </message>
    <message>
        <source>the link gives “%1” twice</source>
        <translation>le lien donne «&#xa0;%1&#xa0;» deux fois</translation>
    </message>
    <message>
        <source>the invite token is longer than %1 characters</source>
        <translation>le jeton d’invitation dépasse %1 caractères</translation>
    </message>
    <message>
        <source>the invite token may hold only visible ASCII characters</source>
        <translation>le jeton d’invitation ne peut contenir que des caractères ASCII visibles</translation>
    </message>
    <message>
        <source>the link has an empty invite token</source>
        <translation>le lien contient un jeton d’invitation vide</translation>
    </message>
</context>
<context>
    <name>rookery::ui::LanguageChooser</name>
    <message>
        <source>&amp;Language:</source>
        <translation>&amp;Langue&#xa0;:</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Langue</translation>
    </message>
    <message>
        <source>The system&apos;s (%1)</source>
        <translation>Celle du système (%1)</translation>
    </message>
    <message>
        <source>Applies when Rookery starts again.</source>
        <translation>S’applique au prochain démarrage de Rookery.</translation>
    </message>
</context>
<context>
    <name>rookery::ui::MainWindow</name>
    <message>
        <source>Rookery</source>
        <translation>Rookery</translation>
    </message>
    <message>
        <source>Rookery logo</source>
        <translation>Logo de Rookery</translation>
    </message>
    <message>
        <source>Lend this PC to a swarm of volunteers training a neural network together.</source>
        <translation>Prêtez ce PC à un essaim de bénévoles qui entraînent ensemble un réseau de neurones.</translation>
    </message>
    <message>
        <source>Starts or pauses this PC&apos;s contribution to the training</source>
        <translation>Démarre ou met en pause la contribution de ce PC à l’entraînement</translation>
    </message>
    <message>
        <source>rookery-node refused: %1</source>
        <translation>rookery-node a refusé&#xa0;: %1</translation>
    </message>
    <message>
        <source>Started rookery-node (process %1)</source>
        <translation>rookery-node lancé (processus %1)</translation>
    </message>
    <message>
        <source>rookery-node %1 · process %2 · data in %3</source>
        <translation>rookery-node %1 · processus %2 · données dans %3</translation>
    </message>
    <message>
        <source>rookery-node stopped</source>
        <translation>rookery-node s’est arrêté</translation>
    </message>
    <message>
        <source>Starting rookery-node…</source>
        <translation>Lancement de rookery-node…</translation>
    </message>
    <message>
        <source>Connecting to rookery-node…</source>
        <translation>Connexion à rookery-node…</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>Arrêt…</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Mettre en pause</translation>
    </message>
    <message>
        <source>Contribute</source>
        <translation>Contribuer</translation>
    </message>
    <message>
        <source>Rookery is still running</source>
        <translation>Rookery fonctionne toujours</translation>
    </message>
    <message>
        <source>Rookery keeps working in the tray. Use its menu to pause or quit.</source>
        <translation>Rookery continue de travailler dans la zone de notification. Utilisez son menu pour le mettre en pause ou le quitter.</translation>
    </message>
    <message>
        <source>Rookery keeps contributing</source>
        <translation>Rookery continue de contribuer</translation>
    </message>
    <message>
        <source>This PC goes on contributing in the background. Open Rookery again to pause it or to quit.</source>
        <translation>Ce PC continue de contribuer en arrière-plan. Rouvrez Rookery pour le mettre en pause ou quitter.</translation>
    </message>
    <message>
        <source>Stopping rookery-node: it finishes its current work unit and saves…</source>
        <translation>Arrêt de rookery-node&#xa0;: il termine son unité de travail en cours et enregistre…</translation>
    </message>
    <message>
        <source>Close Now</source>
        <translation>Fermer maintenant</translation>
    </message>
    <message>
        <source>Quitting Rookery</source>
        <translation>Fermeture de Rookery</translation>
    </message>
    <message>
        <source>Notice</source>
        <translation>Avis</translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation>Paramètres…</translation>
    </message>
    <message>
        <source>How much of this PC Rookery may use, while you use it and while it is idle</source>
        <translation>Quelle part de ce PC Rookery peut utiliser, pendant que vous vous en servez et quand il est inactif</translation>
    </message>
    <message>
        <source>Settings are kept by rookery-node, which does not answer: %1</source>
        <translation>Les paramètres sont gérés par rookery-node, qui ne répond pas&#xa0;: %1</translation>
    </message>
    <message>
        <source>Restarting rookery-node with its data in %1…</source>
        <translation>Redémarrage de rookery-node avec ses données dans %1…</translation>
    </message>
    <message>
        <source>This PC left the job. Open an invite link to join a swarm again.</source>
        <translation>Ce PC a quitté la tâche. Ouvrez un lien d’invitation pour rejoindre de nouveau un essaim.</translation>
    </message>
    <message>
        <source>Restarting rookery-node to find out how it is reached…</source>
        <translation>Redémarrage de rookery-node pour déterminer comment il est joint…</translation>
    </message>
    <message>
        <source>Restarting rookery-node to be reached at %1…</source>
        <translation>Redémarrage de rookery-node pour être joignable à %1…</translation>
    </message>
</context>
<context>
    <name>rookery::ui::NodeConnection</name>
    <message>
        <source>rookery-node stopped</source>
        <translation>rookery-node s’est arrêté</translation>
    </message>
    <message>
        <source>rookery-node does not answer</source>
        <translation>rookery-node ne répond pas</translation>
    </message>
    <message>
        <source>rookery-node is not running</source>
        <translation>rookery-node ne tourne pas</translation>
    </message>
</context>
<context>
    <name>rookery::ui::NodeLauncher</name>
    <message>
        <source>rookery-node (process %1) is running but does not answer</source>
        <translation>rookery-node (processus %1) tourne mais ne répond pas</translation>
    </message>
    <message>
        <source>rookery-node was not found; set ROOKERY_NODE_BIN or install it beside rookery</source>
        <translation>rookery-node est introuvable&#xa0;; définissez ROOKERY_NODE_BIN ou installez-le à côté de rookery</translation>
    </message>
    <message>
        <source>rookery-node did not start after %1 attempts; see its log</source>
        <translation>rookery-node n’a pas démarré après %1 tentatives&#xa0;; consultez son journal</translation>
    </message>
    <message>
        <source>could not start %1: %2</source>
        <translation>impossible de lancer %1&#xa0;: %2</translation>
    </message>
    <message>
        <source>rookery-node (process %1) does not answer</source>
        <translation>rookery-node (processus %1) ne répond pas</translation>
    </message>
    <message>
        <source>rookery-node stopped right after starting; see its log</source>
        <translation>rookery-node s’est arrêté juste après son lancement&#xa0;; consultez son journal</translation>
    </message>
</context>
<context>
    <name>rookery::ui::NodeStateCard</name>
    <message>
        <source>Node</source>
        <translation>Nœud</translation>
    </message>
    <message>
        <source>Node state</source>
        <translation>État du nœud</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>Raison</translation>
    </message>
    <message>
        <source>Work units</source>
        <translation>Unités de travail</translation>
    </message>
    <message>
        <source>Work done</source>
        <translation>Travail effectué</translation>
    </message>
    <message>
        <source>Current speed</source>
        <translation>Vitesse actuelle</translation>
    </message>
    <message>
        <source>Running for</source>
        <translation>En marche depuis</translation>
    </message>
    <message>
        <source>Coordinator</source>
        <translation>Coordinateur</translation>
    </message>
    <message>
        <source>Connecting to rookery-node…</source>
        <translation>Connexion à rookery-node…</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>inactif</translation>
    </message>
    <message>
        <source>none: computing a local benchmark workload</source>
        <translation>aucun&#xa0;: calcule une charge de test locale</translation>
    </message>
    <message>
        <source>%1 (%2 ms)</source>
        <translation>%1 (%2 ms)</translation>
    </message>
    <message>
        <source>none: training a stage of a fixed pipeline plan</source>
        <translation>aucun&#xa0;: entraîne un étage d’un plan de pipeline fixe</translation>
    </message>
    <message>
        <source>Allowed</source>
        <translation>Autorisé</translation>
    </message>
    <message>
        <source>Sensors</source>
        <translation>Capteurs</translation>
    </message>
    <message numerus="yes">
        <source>%n thread(s)</source>
        <translation>
            <numerusform>%n thread</numerusform>
            <numerusform>%n threads</numerusform>
        </translation>
    </message>
    <message>
        <source>, %1% CPU time</source>
        <translation>, %1&#xa0;% du temps CPU</translation>
    </message>
    <message>
        <source>, upload %1 KiB/s</source>
        <translation>, envoi %1 Kio/s</translation>
    </message>
    <message>
        <source>, download %1 KiB/s</source>
        <translation>, réception %1 Kio/s</translation>
    </message>
    <message>
        <source> (in use)</source>
        <translation> (PC utilisé)</translation>
    </message>
    <message>
        <source> (idle)</source>
        <translation> (PC inactif)</translation>
    </message>
    <message>
        <source>; not available: %1</source>
        <translation>&#xa0;; indisponibles&#xa0;: %1</translation>
    </message>
    <message>
        <source>, </source>
        <translation>, </translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1&#xa0;: %2</translation>
    </message>
</context>
<context>
    <name>rookery::ui::PipelineDiagram</name>
    <message>
        <source>Pipeline diagram</source>
        <translation>Schéma du pipeline</translation>
    </message>
    <message>
        <source>This PC is not in a pipeline</source>
        <translation>Ce PC n’est dans aucun pipeline</translation>
    </message>
    <message numerus="yes">
        <source>A pipeline of %n stage(s), from the data to the loss.</source>
        <translation>
            <numerusform>Un pipeline de %n étage, des données à la perte.</numerusform>
            <numerusform>Un pipeline de %n étages, des données à la perte.</numerusform>
        </translation>
    </message>
    <message>
        <source>This PC is stage %1 and holds %2.</source>
        <translation>Ce PC est l’étage %1 et détient %2.</translation>
    </message>
    <message>
        <source>data</source>
        <translation>données</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>perte</translation>
    </message>
    <message>
        <source>Stage %1 · this PC</source>
        <translation>Étage %1 · ce PC</translation>
    </message>
    <message numerus="yes">
        <source>The swarm: %n pipeline(s).</source>
        <translation>
            <numerusform>L’essaim : %n pipeline.</numerusform>
            <numerusform>L’essaim : %n pipelines.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Pipeline %1, this PC&apos;s: %n stage(s), %2 samples/s.</source>
        <translation>
            <numerusform>Pipeline %1, celui de ce PC : %n étage, %2 échantillons/s.</numerusform>
            <numerusform>Pipeline %1, celui de ce PC : %n étages, %2 échantillons/s.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Pipeline %1: %n stage(s), %2 samples/s.</source>
        <translation>
            <numerusform>Pipeline %1 : %n étage, %2 échantillons/s.</numerusform>
            <numerusform>Pipeline %1 : %n étages, %2 échantillons/s.</numerusform>
        </translation>
    </message>
    <message>
        <source>P%1</source>
        <translation>P%1</translation>
    </message>
    <message>
        <source>this PC · %1/s</source>
        <translation>ce PC · %1/s</translation>
    </message>
    <message>
        <source>%1/s</source>
        <translation>%1/s</translation>
    </message>
    <message>
        <source>Stage %1</source>
        <translation>Étage %1</translation>
    </message>
</context>
<context>
    <name>rookery::ui::PresenceReporter</name>
    <message>
        <source>this window&apos;s input only</source>
        <translation>uniquement les saisies dans cette fenêtre</translation>
    </message>
    <message>
        <source>needs the X11 screensaver extension (libXss)</source>
        <translation>nécessite l’extension économiseur d’écran de X11 (libXss)</translation>
    </message>
    <message>
        <source>X11 screensaver extension</source>
        <translation>extension économiseur d’écran de X11</translation>
    </message>
    <message>
        <source>the active window&apos;s _NET_WM_STATE</source>
        <translation>_NET_WM_STATE de la fenêtre active</translation>
    </message>
    <message>
        <source>the window manager does not report the active window</source>
        <translation>le gestionnaire de fenêtres n’indique pas la fenêtre active</translation>
    </message>
    <message>
        <source>not an X11 session</source>
        <translation>pas une session X11</translation>
    </message>
</context>
<context>
    <name>rookery::ui::SettingsDialog</name>
    <message>
        <source>Rookery settings</source>
        <translation>Paramètres de Rookery</translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>Cet ordinateur</translation>
    </message>
    <message>
        <source>Start with my session</source>
        <translation>Démarrer avec ma session</translation>
    </message>
    <message>
        <source>Open Rookery in the tray when you log in (%1)</source>
        <translation>Ouvrir Rookery dans la zone de notification à l’ouverture de session (%1)</translation>
    </message>
    <message>
        <source>Snooze for an hour</source>
        <translation>Suspendre pendant une heure</translation>
    </message>
    <message>
        <source>While I use my PC</source>
        <translation>Pendant que j’utilise mon PC</translation>
    </message>
    <message>
        <source>While the PC is idle</source>
        <translation>Quand le PC est inactif</translation>
    </message>
    <message>
        <source>Always</source>
        <translation>Toujours</translation>
    </message>
    <message>
        <source>any time; e.g. mon-fri 18:00-08:00; weekends 00:00-24:00</source>
        <translation>à tout moment&#xa0;; p. ex. mon-fri 18:00-08:00; weekends 00:00-24:00</translation>
    </message>
    <message>
        <source>none; e.g. steam, blender</source>
        <translation>aucun&#xa0;; p. ex. steam, blender</translation>
    </message>
    <message>
        <source>Default: %1</source>
        <translation>Par défaut&#xa0;: %1</translation>
    </message>
    <message>
        <source>The node took your settings, but starting with your session could not be changed: %1</source>
        <translation>Le nœud a pris en compte vos paramètres, mais le démarrage avec votre session n’a pas pu être modifié&#xa0;: %1</translation>
    </message>
    <message>
        <source>Starting with your session could not be changed: %1</source>
        <translation>Le démarrage avec votre session n’a pas pu être modifié&#xa0;: %1</translation>
    </message>
    <message>
        <source>&amp;Data folder:</source>
        <translation>Dossier de &amp;données&#xa0;:</translation>
    </message>
    <message>
        <source>Data folder</source>
        <translation>Dossier de données</translation>
    </message>
    <message>
        <source>Where rookery-node keeps this PC&apos;s keys, its settings, the contribution ledger and checkpoints. Another folder starts afresh (a new identity, an empty ledger) unless you copy the old one there; the node restarts to use it.</source>
        <translation>L’endroit où rookery-node garde les clés de ce PC, ses réglages, le registre des contributions et les points de reprise. Un autre dossier repart de zéro (nouvelle identité, registre vide) à moins d’y copier l’ancien{N}; le nœud redémarre pour l’utiliser.</translation>
    </message>
    <message>
        <source>C&amp;hoose…</source>
        <translation>&amp;Choisir…</translation>
    </message>
    <message>
        <source>Choose the data folder</source>
        <translation>Choisir le dossier de données</translation>
    </message>
    <message>
        <source>The swarm</source>
        <translation>L’essaim</translation>
    </message>
    <message>
        <source>&amp;Leave this job…</source>
        <translation>&amp;Quitter cette tâche…</translation>
    </message>
    <message>
        <source>This PC stops training for the job for good: the coordinator plans without it at once</source>
        <translation>Ce PC cesse pour de bon d’entraîner pour la tâche&#xa0;: le coordinateur planifie aussitôt sans lui</translation>
    </message>
    <message>
        <source>This PC volunteers for job “%1” at coordinator %2.</source>
        <translation>Ce PC est bénévole pour la tâche «&#xa0;%1&#xa0;» auprès du coordinateur %2.</translation>
    </message>
    <message>
        <source>This PC talks to coordinator %1 but has joined none of its jobs.</source>
        <translation>Ce PC communique avec le coordinateur %1 mais n’a rejoint aucune de ses tâches.</translation>
    </message>
    <message>
        <source>This PC trains a stage of a fixed pipeline plan, without a coordinator.</source>
        <translation>Ce PC entraîne un étage d’un plan de pipeline fixe, sans coordinateur.</translation>
    </message>
    <message>
        <source>This PC has joined no swarm: open an invite link to join one.</source>
        <translation>Ce PC n’a rejoint aucun essaim&#xa0;: ouvrez un lien d’invitation pour en rejoindre un.</translation>
    </message>
    <message>
        <source>The data folder must be a full path, such as %1.</source>
        <translation>Le dossier de données doit être un chemin complet, comme %1.</translation>
    </message>
    <message>
        <source>Rookery&apos;s data folder</source>
        <translation>Dossier de données de Rookery</translation>
    </message>
    <message>
        <source>Leave this job?</source>
        <translation>Quitter cette tâche&#xa0;?</translation>
    </message>
    <message>
        <source>This PC stops training for the job for good; its contribution so far stays counted. Rookery then joins no swarm until you open an invite link.</source>
        <translation>Ce PC cesse pour de bon d’entraîner pour la tâche&#xa0;; sa contribution jusqu’ici reste comptée. Rookery ne rejoint ensuite aucun essaim tant que vous n’ouvrez pas de lien d’invitation.</translation>
    </message>
    <message>
        <source>The node cannot leave the job: %1</source>
        <translation>Le nœud ne peut pas quitter la tâche&#xa0;: %1</translation>
    </message>
    <message>
        <source>Leaving the job: the node finishes its work in progress, tells the coordinator and stops.</source>
        <translation>Départ de la tâche&#xa0;: le nœud termine le travail en cours, prévient le coordinateur et s’arrête.</translation>
    </message>
    <message>
        <source>Reached at (e&amp;xperts):</source>
        <translation>Joignable à (e&amp;xperts) :</translation>
    </message>
    <message>
        <source>Address other PCs reach this one at</source>
        <translation>Adresse à laquelle les autres PC joignent celui-ci</translation>
    </message>
    <message>
        <source>found out by Rookery</source>
        <translation>déterminée par Rookery</translation>
    </message>
    <message>
        <source>Leave empty: Rookery finds out how other PCs reach this one (through the home router, or a relay). An address here (a public IP address or host name of this PC) is used as it is, and the node listens only there; the node restarts to use it.</source>
        <translation>Laissez vide : Rookery détermine comment les autres PC joignent celui-ci (par le routeur domestique ou un relais). Une adresse ici (une adresse IP publique ou un nom d’hôte de ce PC) est utilisée telle quelle, et le nœud n’écoute que là ; le nœud redémarre pour l’utiliser.</translation>
    </message>
    <message>
        <source>“%1” is not an address: give an IP address (such as 203.0.113.7 or 2001:db8::7) or a host name, or leave it empty.</source>
        <translation>« %1 » n’est pas une adresse : indiquez une adresse IP (comme 203.0.113.7 ou 2001:db8::7) ou un nom d’hôte, ou laissez vide.</translation>
    </message>
</context>
<context>
    <name>rookery::ui::SingleInstance</name>
    <message>
        <source>cannot create %1</source>
        <translation>impossible de créer %1</translation>
    </message>
    <message>
        <source>Rookery is already running (process %1) but does not answer</source>
        <translation>Rookery est déjà lancé (processus %1) mais ne répond pas</translation>
    </message>
    <message>
        <source>Rookery is already running but does not answer</source>
        <translation>Rookery est déjà lancé mais ne répond pas</translation>
    </message>
    <message>
        <source>cannot listen on %1: %2</source>
        <translation>impossible d’écouter sur %1&#xa0;: %2</translation>
    </message>
</context>
<context>
    <name>rookery::ui::SwarmCard</name>
    <message>
        <source>Your place in the swarm</source>
        <translation>Votre place dans l’essaim</translation>
    </message>
    <message>
        <source>Job</source>
        <translation>Tâche</translation>
    </message>
    <message>
        <source>Place in the pipeline</source>
        <translation>Place dans le pipeline</translation>
    </message>
    <message>
        <source>Receives from</source>
        <translation>Reçoit de</translation>
    </message>
    <message>
        <source>Sends to</source>
        <translation>Envoie à</translation>
    </message>
    <message>
        <source>In flight</source>
        <translation>En cours</translation>
    </message>
    <message>
        <source>Weight versions</source>
        <translation>Versions des poids</translation>
    </message>
    <message>
        <source>Dropped · rejected</source>
        <translation>Abandonnés · rejetés</translation>
    </message>
    <message>
        <source>Sent to peers</source>
        <translation>Envoyé aux pairs</translation>
    </message>
    <message>
        <source>Ring partners</source>
        <translation>Partenaires d’anneau</translation>
    </message>
    <message>
        <source>none: no other pipeline averages with this one</source>
        <translation>aucun : aucun autre pipeline ne fait la moyenne avec celui-ci</translation>
    </message>
    <message>
        <source>pipeline %1 · %2 · %3 values shared</source>
        <translation>pipeline %1 · %2 · %3 valeurs partagées</translation>
    </message>
    <message>
        <source>%1 · excluded</source>
        <translation>%1 · exclu</translation>
    </message>
    <message>
        <source>Not in a pipeline yet</source>
        <translation>Pas encore dans un pipeline</translation>
    </message>
    <message>
        <source>Contributing benchmark work</source>
        <translation>Contribue un travail de test</translation>
    </message>
    <message>
        <source>Benchmark work only</source>
        <translation>Travail de test uniquement</translation>
    </message>
    <message>
        <source>This PC computes a benchmark workload until a coordinator places it in a pipeline.</source>
        <translation>Ce PC calcule une charge de test jusqu’à ce qu’un coordinateur le place dans un pipeline.</translation>
    </message>
    <message>
        <source>When you contribute, this PC computes a benchmark workload until a coordinator places it in a pipeline.</source>
        <translation>Quand vous contribuez, ce PC calcule une charge de test jusqu’à ce qu’un coordinateur le place dans un pipeline.</translation>
    </message>
    <message>
        <source>Job %1</source>
        <translation>Tâche %1</translation>
    </message>
    <message>
        <source>Pipeline %1 · stage %2 of %3 · %4</source>
        <translation>Pipeline %1 · étage %2 sur %3 · %4</translation>
    </message>
    <message>
        <source>the dataset (first stage)</source>
        <translation>le jeu de données (premier étage)</translation>
    </message>
    <message>
        <source>nobody: computes the loss (last stage)</source>
        <translation>personne&#xa0;: calcule la perte (dernier étage)</translation>
    </message>
    <message numerus="yes">
        <source>%n micro-batch(es)</source>
        <translation>
            <numerusform>%n micro-lot</numerusform>
            <numerusform>%n micro-lots</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 stashed · %2</source>
        <translation>%1 conservées · %2</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>Dropped: micro-batches whose gradient did not come back in time. Rejected: messages that did not match what this stage expected.</source>
        <translation>Abandonnés&#xa0;: micro-lots dont le gradient n’est pas revenu à temps. Rejetés&#xa0;: messages qui ne correspondaient pas à ce qu’attendait cet étage.</translation>
    </message>
    <message>
        <source>Fed every micro-batch it was asked to; none is in flight.</source>
        <translation>Tous les micro-lots demandés ont été fournis&#xa0;; aucun n’est en cours.</translation>
    </message>
    <message>
        <source>Waiting for rookery-node</source>
        <translation>En attente de rookery-node</translation>
    </message>
    <message>
        <source>The swarm is shown once rookery-node answers.</source>
        <translation>L’essaim s’affiche dès que rookery-node répond.</translation>
    </message>
    <message>
        <source>The swarm</source>
        <translation>L’essaim</translation>
    </message>
    <message>
        <source>Your rank</source>
        <translation>Votre rang</translation>
    </message>
    <message>
        <source>The run&apos;s loss</source>
        <translation>Perte de l’entraînement</translation>
    </message>
    <message numerus="yes">
        <source>%n volunteer(s) in %1 · %2 samples/s</source>
        <translation>
            <numerusform>%n bénévole dans %1 · %2 échantillons/s</numerusform>
            <numerusform>%n bénévoles dans %1 · %2 échantillons/s</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n pipeline(s)</source>
        <translation>
            <numerusform>%n pipeline</numerusform>
            <numerusform>%n pipelines</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Plan %1 from the coordinator; it has re-planned %n time(s) as volunteers came and went.</source>
        <translation>
            <numerusform>Plan %1 du coordinateur&#xa0;; il a replanifié %n fois au gré des arrivées et des départs de bénévoles.</numerusform>
            <numerusform>Plan %1 du coordinateur&#xa0;; il a replanifié %n fois au gré des arrivées et des départs de bénévoles.</numerusform>
        </translation>
    </message>
    <message>
        <source>not ranked yet</source>
        <translation>pas encore classé</translation>
    </message>
    <message>
        <source>#%1 of %2 by confirmed samples (%3)</source>
        <translation>n° %1 sur %2 en échantillons confirmés (%3)</translation>
    </message>
    <message>
        <source>The stages that received this PC&apos;s work confirmed %1 of the %2 samples it did; the run credits only confirmed work.</source>
        <translation>Les étages qui ont reçu le travail de ce PC ont confirmé %1 des %2 échantillons qu’il a traités ; l’entraînement ne crédite que le travail confirmé.</translation>
    </message>
    <message>
        <source>%1 (from %2)</source>
        <translation>%1 (depuis %2)</translation>
    </message>
    <message>
        <source>no loss reported yet</source>
        <translation>aucune perte signalée pour l’instant</translation>
    </message>
    <message>
        <source>minutes</source>
        <translation>minutes</translation>
    </message>
    <message>
        <source>The run&apos;s loss curve</source>
        <translation>Courbe de perte de l’entraînement</translation>
    </message>
    <message>
        <source>The run&apos;s loss went from %1 to %2 in %3</source>
        <translation>La perte de l’entraînement est passée de %1 à %2 en %3</translation>
    </message>
    <message>
        <source>How peers reach this PC</source>
        <translation>Comment les pairs joignent ce PC</translation>
    </message>
    <message>
        <source>Model archive</source>
        <translation>Archive du modèle</translation>
    </message>
    <message>
        <source>Held-out loss</source>
        <translation>Perte sur les données réservées</translation>
    </message>
    <message>
        <source>its held-out loss is %1</source>
        <translation>sa perte sur les données réservées est %1</translation>
    </message>
    <message>
        <source>held-out %1</source>
        <translation>réservées %1</translation>
    </message>
    <message>
        <source>no snapshot yet</source>
        <translation>pas encore d&apos;instantané</translation>
    </message>
    <message>
        <source>The coordinator keeps snapshots of the whole model, collected from the volunteers who train it.</source>
        <translation>Le coordinateur conserve des instantanés du modèle entier, recueillis auprès des bénévoles qui l&apos;entraînent.</translation>
    </message>
    <message>
        <source>snapshot %1, %2 ago</source>
        <translation>instantané %1, il y a %2</translation>
    </message>
    <message>
        <source>Blocks %1–%2 came back from snapshot %3, %4 ago: no volunteer held them.</source>
        <translation>Les blocs %1–%2 sont revenus de l&apos;instantané %3 il y a %4 : aucun bénévole ne les détenait.</translation>
    </message>
    <message>
        <source>blocks %1–%2 restored from snapshot %3</source>
        <translation>blocs %1–%2 restaurés depuis l&apos;instantané %3</translation>
    </message>
</context>
<context>
    <name>rookery::ui::TrainingCard</name>
    <message>
        <source>Training</source>
        <translation>Entraînement</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>Perte</translation>
    </message>
    <message>
        <source>Moving average</source>
        <translation>Moyenne mobile</translation>
    </message>
    <message>
        <source>micro-batches</source>
        <translation>micro-lots</translation>
    </message>
    <message>
        <source>Loss chart</source>
        <translation>Graphique de la perte</translation>
    </message>
    <message>
        <source>Loss of each micro-batch this stage completed (faint) and its moving average</source>
        <translation>Perte de chaque micro-lot terminé par cet étage (en clair) et sa moyenne mobile</translation>
    </message>
    <message>
        <source>Samples</source>
        <translation>Échantillons</translation>
    </message>
    <message>
        <source>Speed</source>
        <translation>Vitesse</translation>
    </message>
    <message>
        <source>Optimizer steps</source>
        <translation>Pas de l’optimiseur</translation>
    </message>
    <message>
        <source>No model to train yet: the loss curve appears here once this PC trains a stage of a pipeline.</source>
        <translation>Pas encore de modèle à entraîner&#xa0;: la courbe de perte apparaîtra ici dès que ce PC entraînera un étage d’un pipeline.</translation>
    </message>
    <message>
        <source>Waiting for the first micro-batch to come back through the pipeline…</source>
        <translation>En attente du retour du premier micro-lot à travers le pipeline…</translation>
    </message>
    <message>
        <source>Press Contribute to train: the loss curve appears here.</source>
        <translation>Cliquez sur «&#xa0;Contribuer&#xa0;» pour entraîner&#xa0;: la courbe de perte apparaîtra ici.</translation>
    </message>
    <message>
        <source>%1 · average %2</source>
        <translation>%1 · moyenne %2</translation>
    </message>
    <message>
        <source>none yet</source>
        <translation>pas encore</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>inactif</translation>
    </message>
    <message>
        <source>The training is shown once rookery-node answers.</source>
        <translation>L’entraînement s’affiche dès que rookery-node répond.</translation>
    </message>
    <message>
        <source>No loss yet</source>
        <translation>Pas encore de perte</translation>
    </message>
    <message>
        <source>Loss %1 after %2 micro-batches; %3 at micro-batch %4</source>
        <translation>Perte %1 après %2 micro-lots&#xa0;; %3 au micro-lot %4</translation>
    </message>
    <message>
        <source>What the run&apos;s model writes</source>
        <translation>Ce qu&apos;écrit le modèle de l&apos;entraînement</translation>
    </message>
    <message>
        <source>What the run&apos;s model predicts (snapshot %1, held-out loss %2, accuracy %3)</source>
        <translation>Ce que prédit le modèle de l&apos;entraînement (instantané %1, perte sur les données réservées %2, exactitude %3)</translation>
    </message>
    <message>
        <source>%1 as %2</source>
        <translation>%1 comme %2</translation>
    </message>
    <message>
        <source>%1 of %2 held-out images right: %3</source>
        <translation>%1 sur %2 images réservées justes : %3</translation>
    </message>
    <message>
        <source>What the run&apos;s model writes (snapshot %1, held-out loss %2)</source>
        <translation>Ce qu&apos;écrit le modèle de l&apos;entraînement (instantané %1, perte sur les données réservées %2)</translation>
    </message>
</context>
<context>
    <name>rookery::ui::TrayIcon</name>
    <message>
        <source>Rookery tray menu</source>
        <translation>Menu de Rookery dans la zone de notification</translation>
    </message>
    <message>
        <source>Contribute</source>
        <translation>Contribuer</translation>
    </message>
    <message>
        <source>Open Rookery</source>
        <translation>Ouvrir Rookery</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Quitter</translation>
    </message>
    <message>
        <source>Stop contributing, stop rookery-node and close Rookery</source>
        <translation>Arrêter de contribuer, arrêter rookery-node et fermer Rookery</translation>
    </message>
    <message>
        <source>Rookery</source>
        <translation>Rookery</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Mettre en pause</translation>
    </message>
    <message>
        <source>Rookery: %1</source>
        <translation>Rookery&#xa0;: %1</translation>
    </message>
    <message>
        <source>Rookery: the disk is full</source>
        <translation>Rookery&#xa0;: le disque est plein</translation>
    </message>
    <message>
        <source>rookery-node cannot save its work: %1. Free some disk space on this PC, then start Rookery again.</source>
        <translation>rookery-node ne peut pas enregistrer son travail&#xa0;: %1. Libérez de l’espace disque sur ce PC, puis relancez Rookery.</translation>
    </message>
    <message>
        <source>Rookery stopped contributing</source>
        <translation>Rookery a cessé de contribuer</translation>
    </message>
    <message>
        <source>rookery-node reports an error: %1</source>
        <translation>rookery-node signale une erreur&#xa0;: %1</translation>
    </message>
    <message>
        <source>The coordinator refused this PC</source>
        <translation>Le coordinateur a refusé ce PC</translation>
    </message>
    <message>
        <source>The training job ended</source>
        <translation>La tâche d’entraînement est terminée</translation>
    </message>
    <message>
        <source>This PC has nothing more to do for its job. Thank you for contributing!</source>
        <translation>Ce PC n’a plus rien à faire pour sa tâche. Merci de votre contribution&#xa0;!</translation>
    </message>
    <message>
        <source>“%1” has ended: this PC has nothing more to do for it. Thank you for contributing!</source>
        <translation>La tâche «&#xa0;%1&#xa0;» est terminée&#xa0;: ce PC n’a plus rien à faire pour elle. Merci de votre contribution&#xa0;!</translation>
    </message>
    <message>
        <source>rookery-node cannot record your contribution: %1. Free some disk space on this PC; the work done meanwhile is written once there is room.</source>
        <translation>rookery-node ne peut pas enregistrer votre contribution&#xa0;: %1. Libérez de l’espace disque sur ce PC&#xa0;; le travail effectué entre-temps sera écrit dès qu’il y aura de la place.</translation>
    </message>
    <message>
        <source>Snooze for an hour</source>
        <translation>Suspendre pendant une heure</translation>
    </message>
    <message>
        <source>End the snooze</source>
        <translation>Terminer la suspension</translation>
    </message>
    <message>
        <source>The coordinator banned this PC</source>
        <translation>Le coordinateur a banni ce PC</translation>
    </message>
    <message>
        <source>Banned from the job: %1. This PC no longer trains with the swarm; open Rookery for details.</source>
        <translation>Banni de la tâche&#xa0;: %1. Ce PC n’entraîne plus avec l’essaim&#xa0;; ouvrez Rookery pour les détails.</translation>
    </message>
    <message>
        <source>Refused: %1. This PC no longer trains with the swarm; open Rookery for details.</source>
        <translation>Refusé&#xa0;: %1. Ce PC n’entraîne plus avec l’essaim&#xa0;; ouvrez Rookery pour les détails.</translation>
    </message>
</context>
</TS>
